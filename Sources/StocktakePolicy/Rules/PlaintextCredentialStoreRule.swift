import StocktakeModel

/// Unencrypted databases (SQLite, Core Data, a web view's local storage, Realm) with credential-like columns,
/// keys or properties.
struct PlaintextCredentialStoreRule: Rule {
    static let description = RuleDescription(
        id: "plaintext-credential-store", title: "Credentials in an unencrypted database",
        finds: """
            an unencrypted SQLite or Core Data store with a credential-like column holding values \
            (`ZUSER.ZPASSWORD`), a web view's local storage (WebKit's `ItemTable`) holding a secret, or an \
            unencrypted Realm file whose model has such a property
            """,
        rationale: """
            A SQLite or Core Data store, or a Realm file without encryption, is readable by anyone with the \
            container's files. A column such as `ZPASSWORD` or `token` holding values (or a Realm model with such a \
            property) keeps credentials there in clear; so does a web view's local storage (WebKit's \
            `ItemTable`) when a page stores a token there. Encrypted stores (SQLCipher, an encrypted Realm) are not \
            reported; they have no readable header. The value is never shown, only the table and column and its \
            length.
            """,
        source: """
            \(Guidance.mastg0302) ; \(Guidance.maswe0006) ; \
            https://www.mongodb.com/docs/atlas/device-sdks/sdk/swift/realm-files/encrypt-a-realm/
            """,
        defaultSeverity: .warning, severityNote: "error when backed up",
        fix: """
            Keep credentials in the Keychain, not in the store; when the store itself must hold sensitive data, \
            encrypt it (SQLCipher, Realm's encryptionKey with the key in the Keychain) and give the file a data \
            protection class of complete protection.
            """,
        examples: [
            RuleExample(
                "a Core Data password column, a Realm user model and a web view's stored token", expectedFindings: 3,
                sensitive: [
                    ("Library/Application Support/Model.sqlite", .database, "column ZUSER.ZPASSWORD", .password, 12),
                    ("Documents/default.realm", .realm, "property password", .password, 0),
                    (localStorage, .database, "local storage key authToken", .token, 24),
                ]
            ) { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Library/Application Support/Model.sqlite", apparentBytes: 90_000)
                builder.add("Documents/default.realm", apparentBytes: 9_000)
                builder.add(localStorage, apparentBytes: 8_192, kind: .sqlite)
            },
            RuleExample("stores without credential columns", expectedFindings: 0) { builder in
                builder.add("Library/Application Support/Model.sqlite", apparentBytes: 90_000)
            },
        ], references: ["MASTG-TEST-0302", "MASWE-0006", "MASTG-TEST-0215", "MASTG-TEST-0299"])

    private static let localStorage = "Library/WebKit/WebsiteData/LocalStorage/https_app.example.com_0.localstorage"

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        SensitiveDataFindings.findings(.database, in: context) + SensitiveDataFindings.findings(.realm, in: context)
    }
}
