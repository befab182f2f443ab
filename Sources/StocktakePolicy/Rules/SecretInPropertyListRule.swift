import StocktakeModel

/// Credentials and tokens in property lists: UserDefaults (`Library/Preferences`), plists the app writes,
/// NSKeyedArchiver values inside them.
struct SecretInPropertyListRule: Rule {
    static let description = RuleDescription(
        id: "secret-in-property-list", title: "Credential or token in a property list",
        finds: """
            a password, PIN, token, API key or private key in a property list (UserDefaults, NSKeyedArchiver values \
            and archived objects inside them)
            """,
        rationale: """
            UserDefaults and property lists are stored unencrypted in the container, readable by anyone who can \
            read the app's files (a backup, a jailbroken or forensically imaged device, a Mac the phone syncs to). \
            OWASP's mobile testing guide lists a password, PIN, session token or API key in them as sensitive data \
            stored unencrypted in private storage; Apple's guidance is to keep secrets in the Keychain. Found by the \
            name a value is stored under and by its shape (JSON Web Tokens, private keys, cloud keys); booleans, \
            counts, dates, UUIDs and push tokens are not reported. The value is never shown, only its key path, kind \
            and length.
            """,
        source: """
            \(Guidance.mastg0302) ; \(Guidance.maswe0006) ; \
            https://developer.apple.com/documentation/security/keychain_services
            """,
        defaultSeverity: .warning, severityNote: "error when backed up or in shared Documents",
        fix: """
            Keep passwords, tokens and keys in the Keychain (kSecClassGenericPassword, with an accessibility class \
            such as kSecAttrAccessibleWhenUnlockedThisDeviceOnly); store only a reference in UserDefaults, and \
            remove the old value on upgrade.
            """,
        examples: [
            RuleExample(
                "a token in UserDefaults, backed up", expectedFindings: 1,
                sensitive: [("Library/Preferences/com.example.app.plist", .propertyList, "key authToken", .token, 40)]
            ) { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Library/Preferences/com.example.app.plist", apparentBytes: 400, kind: .binaryPlist)
            },
            RuleExample(
                "a PIN and a password in one plist in Documents", expectedFindings: 2,
                sensitive: [
                    ("Documents/credentials.plist", .propertyList, "key user.password", .password, 9),
                    ("Documents/credentials.plist", .propertyList, "key user.pin", .pin, 4),
                ]
            ) { builder in builder.add("Documents/credentials.plist", apparentBytes: 300, kind: .xmlPlist) },
            RuleExample(
                "a plist with nothing sensitive; a token found in a text file is another rule's", expectedFindings: 0,
                sensitive: [("Documents/app.log", .textFile, "line 3", .jwt, 180)]
            ) { builder in
                builder.add("Library/Preferences/com.example.app.plist", apparentBytes: 400, kind: .binaryPlist)
                builder.add("Documents/app.log", apparentBytes: 4_000, kind: .text)
            },
        ], references: ["MASTG-TEST-0302", "MASWE-0006", "MASTG-TEST-0215", "MASTG-TEST-0299", "MASTG-TEST-0388"])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        SensitiveDataFindings.findings(.propertyList, in: context)
    }
}
