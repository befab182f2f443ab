/// Values that look like secrets but ship, by design, in every copy of an app or an SDK: publishable keys whose
/// vendors document them as safe in client code, and constants compiled into SDKs. One table, each entry with
/// its public source; docs/policy.md lists it. A value here is never a finding, whatever it is called.
enum PublicValues {
    /// Prefixes of keys meant for client code.
    static let publishablePrefixes: [(prefix: String, what: String)] = [
        // https://firebase.google.com/docs/projects/api-keys ("API keys for Firebase services are not secret")
        ("AIza", "Google API key (Firebase, Maps): identifies the app, restricted in Google Cloud"),
        // https://docs.stripe.com/keys ("Publishable keys … can be publicly accessible in your web or mobile app's client-side code")
        ("pk_live_", "Stripe publishable key"), ("pk_test_", "Stripe publishable test key"),
        // https://docs.mapbox.com/accounts/guides/tokens/ ("public tokens … begin with pk")
        ("pk.eyJ", "Mapbox public access token"),
        // https://help.branch.io/developers-hub/docs/ios-basic-integration ("branch_key" in Info.plist: key_live_/key_test_)
        ("key_live_", "Branch key"), ("key_test_", "Branch test key"),
    ]

    /// Constants compiled into SDKs, identical in every app that links them.
    static let sdkConstants: [(value: String, what: String)] = [
        // https://github.com/firebase/firebase-ios-sdk/blob/main/Crashlytics/Crashlytics/Models/FIRCLSConstants.m
        // (FIRCLSDeveloperToken, sent as the X-CRASHLYTICS-DEVELOPER-TOKEN request header)
        ("77f0789d8e230eccdb4b99b82dccd78d47f9b604", "Firebase Crashlytics iOS SDK's developer token"),
        // https://github.com/firebase/firebase-android-sdk/blob/main/firebase-crashlytics/src/main/java/com/google/firebase/crashlytics/internal/settings/SettingsSpiCall.java
        // (the same header from the Android SDK, seen in cross-platform apps' caches)
        ("470fa2b4ae81cd56ecbcda9735803434cec591fa", "Firebase Crashlytics Android SDK's developer token"),
    ]

    /// Fields of SDK objects that hold the app's public project key: `(archived class, key)`.
    static let sdkFields: [(className: String, key: String, what: String)] = [
        // https://developer.yahoo.com/flurry/docs/integrateflurry/ios/ (startSession:@"YOUR_API_KEY": the project
        // key is compiled into the app and identifies it to Flurry's analytics service)
        ("FlurrySession", "apiKey", "Flurry Analytics project API key")
    ]

    /// Keys (in Info.plist and the app's plists) whose value the vendor documents as a client identifier shipped
    /// in every copy of the app: judged by shape only, never by the name's "token".
    static let clientIdentifierKeys: [(key: String, what: String)] = [
        // https://developers.facebook.com/docs/facebook-login/guides/access-tokens/#clienttokens ("Client tokens
        // are identifiers that you can embed into native mobile binaries … not meant to be secret"), set as
        // `FacebookClientToken` in Info.plist (https://developers.facebook.com/docs/ios/getting-started)
        ("FacebookClientToken", "Facebook client token")
    ]

    /// Whether the key `name` holds a documented client identifier.
    static func isClientIdentifierKey(_ name: String) -> Bool { clientIdentifierKeys.contains { $0.key == name } }

    /// Whether `value` is a publishable key or an SDK's constant.
    static func isPublic(_ value: String) -> Bool {
        publishablePrefixes.contains { value.hasPrefix($0.prefix) }
            || sdkConstants.contains { value.lowercased() == $0.value.lowercased() }
    }

    /// Whether the field `key` of an archived object of class `className` is an SDK's public key.
    static func isPublicField(className: String, key: String) -> Bool {
        sdkFields.contains { $0.className == className && $0.key == key }
    }
}
