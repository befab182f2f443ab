import StocktakeModel

/// What a bundle identifier looks like, and the names that look like one but are not an app's.
enum BundleIdentifierRules {
    /// Preference domains and prefixes that SDKs and Apple frameworks write in any app's
    /// `Library/Preferences/` (seen across unrelated apps in the real layouts, docs/reports.md, "Identity"). They name
    /// the library, never the app.
    static let nonAppDomainPrefixes = [
        // Third-party SDKs.
        "com.firebase.", "com.google.gmp.", "com.google.firebase", "com.google.Primes.", "com.applovin.",
        "app.aifactory.splendidSDK", "com.Instabug.", "com.crashlytics", "com.facebook.sdk", "com.amplitude",
        "com.mixpanel", "com.onesignal", "com.braze", "com.appboy", "com.appsflyer", "io.branch", "com.adjust",
        "com.segment", "com.optimizely", "com.urbanairship", "com.localytics", "com.newrelic", "io.sentry",
        "com.bugsnag", "com.microsoft.appcenter", "com.flurry", "com.kochava", "com.revenuecat", "com.helpshift",
        "com.leanplum", "com.apptentive", "com.google.GoogleSignIn", "com.google.ads", "com.google.admob",
        "com.google.gmp", "com.google.GIP", "com.adobe.mobile", "com.adobe.marketing", "com.mparticle", "com.tealium",
        "com.appdynamics", "com.dynatrace", "com.clevertap", "com.moengage", "com.iterable", "io.intercom",
        "com.zendesk", "com.salesforce.marketingcloud", "com.unity3d.ads", "com.chartboost", "com.ironsource",
        "com.vungle", "com.inmobi", "com.mopub", "com.tapjoy", "com.singular", "com.heapanalytics", "io.embrace",
        "com.instabug", "com.smartlook", "com.yandex.mobile.metrica", "io.realm", "com.pinterest.PINCache",
        // Apple frameworks running inside the app.
        "com.apple.EmojiCache", "com.apple.AdSupport", "com.apple.itunescloud", "com.apple.imessage.bag",
        "com.apple.AppleMediaServices", "com.apple.storebookkeeper", "com.apple.MailAccount-ExtProperties",
        "com.apple.siri.", "com.apple.UIKit", "com.apple.PeoplePicker", "com.apple.CloudKit",
    ]
    /// Domain endings frameworks add to the host app's id (`com.apple.Music.ScriptingLocalStorage`).
    static let nonAppDomainSuffixes = [".ScriptingLocalStorage"]

    static func isKnownNonAppDomain(_ domain: String) -> Bool {
        nonAppDomainPrefixes.contains { domain.hasPrefix($0) } || nonAppDomainSuffixes.contains { domain.hasSuffix($0) }
            || domain.hasPrefix("group.")
    }

    /// The app id in a SplashBoard snapshot folder name: `<id> - {DEFAULT GROUP}`, `sceneID:<id>-default`,
    /// `sceneID:<id>-<UUID>` (`:` shows as `_` in some copies).
    static func fromSnapshotFolder(_ name: String) -> String? {
        if name.hasSuffix(" - {DEFAULT GROUP}") { return String(name.dropLast(" - {DEFAULT GROUP}".count)) }
        guard name.hasPrefix("sceneID:") || name.hasPrefix("sceneID_") else { return nil }
        let scene = name.dropFirst("sceneID:".count)
        if scene.hasSuffix("-default") { return String(scene.dropLast("-default".count)) }
        // A UUID scene suffix: `-` and 36 characters.
        guard scene.count > 37, scene.dropLast(36).hasSuffix("-") else { return nil }
        let uuid = scene.suffix(36)
        guard Hex.isUUID(uuid.utf8) else { return nil }
        return String(scene.dropLast(37))
    }

    /// A plausible bundle identifier: ASCII letters, digits, hyphens and dots, no empty component.
    /// Also keeps identifiers from metadata plists safe to use in report paths.
    static func isPlausible(_ identifier: String) -> Bool {
        let components = identifier.split(separator: ".", omittingEmptySubsequences: false)
        return !identifier.isEmpty && identifier.utf8.count <= 255
            && components.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isIdentifierByte) }
    }

    /// Reverse-DNS looking: plausible and at least two components (`com.example`). Names taken from folders
    /// any library may create must look like this; ids iOS itself writes need not (`imgurmobile`).
    static func isReverseDNS(_ name: String) -> Bool {
        isPlausible(name) && name.contains(".")
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
