import StocktakeModel

/// Secrets shipped in the app bundle's Info.plist (`--app-bundle`): in every copy of the app, readable by anyone
/// who downloads it.
struct HardcodedCredentialRule: Rule {
    static let description = RuleDescription(
        id: "hardcoded-credential", title: "Credential shipped in the app bundle",
        finds: """
            with `--app-bundle`: a secret shipped in the bundle's Info.plist (a Stripe `sk_live_` key, a cloud \
            secret key, a server password, a token under a secret's name), in every copy of the app; publishable \
            keys and SDK constants are not. Reports show Info.plist with each secret replaced by its shape
            """,
        rationale: """
            Info.plist ships inside every copy of the app, and anyone who downloads the app can read it. A secret key \
            there (a Stripe `sk_live_` key, a cloud secret key, a server password, a token under a secret's name) is \
            no longer secret: OWASP MASWE-0005, API keys hard-coded in the app package. Keys meant for client code \
            (Google's `AIza…`, Stripe's `pk_live_`, an SDK's shipped constants) are not reported. The value is never \
            shown: the key, the kind and the length; reports show Info.plist with the value replaced by its shape.
            """,
        source: """
            https://mas.owasp.org/MASWE/MASVS-AUTH/MASWE-0005/ ; \(Guidance.mastg0302) ; \
            https://cwe.mitre.org/data/definitions/798.html
            """,
        defaultSeverity: .error,
        fix: """
            Remove the secret from the bundle and rotate it: it has shipped. Keep server credentials on a server the app \
            calls (a backend or an API gateway that holds the key), or fetch a short-lived token after the user signs in \
            and keep it in the Keychain.
            """,
        examples: [
            RuleExample(
                "a Stripe secret key and a server password in Info.plist", expectedFindings: 2,
                appBundleSecrets: [
                    AppBundleSecret(bundle: "Example.app", place: "key StripeSecretKey", kind: .apiKey, length: 32),
                    AppBundleSecret(bundle: "Example.app", place: "key ServerPassword", kind: .password, length: 12),
                ]
            ) { builder in
                builder.add("Library/Preferences/com.example.app.plist", apparentBytes: 400, kind: .binaryPlist)
            },
            RuleExample("an Info.plist with a publishable key only", expectedFindings: 0) { builder in
                builder.add("Library/Preferences/com.example.app.plist", apparentBytes: 400, kind: .binaryPlist)
            },
        ], references: ["MASWE-0005", "MASTG-TEST-0302", "CWE-798"])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        context.appBundleSecrets.map { secret in
            let message =
                SensitiveDataFindings.what(secret.kind.noun, length: secret.length, place: secret.place)
                + " of the app bundle's Info.plist: shipped in every copy of the app, where anyone who downloads it can read it."
            return RuleFinding(
                index: context.inventory.root, path: Array("\(secret.bundle)/Info.plist".utf8), message: message,
                discriminator: "\(secret.place) \(secret.kind.rawValue)")
        }
    }
}
