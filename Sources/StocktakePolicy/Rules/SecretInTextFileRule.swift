import StocktakeModel

/// Secrets in logs and config files the app writes: JWTs, private keys, cloud keys, `Authorization` headers,
/// `name = value` pairs whose name says secret.
struct SecretInTextFileRule: Rule {
    static let description = RuleDescription(
        id: "secret-in-text-file", title: "Secret in a log or config file",
        finds: """
            a JWT, private key, cloud key, password in a URL, `Authorization` header or secret-named pair in a small \
            text file (logs, JSON, config), Caches and tmp included: there the message says device-only
            """,
        rationale: """
            Logs and configuration files the app writes into its container keep what was printed into them: a \
            bearer token from a network log, a JSON Web Token, a private key or a cloud access key (`AKIA…`) in a \
            config file. They are unencrypted and, outside Caches and tmp, backed up. OWASP's mobile testing guide \
            counts them as sensitive data in private storage and in logs. Small text files are read everywhere, \
            Caches and tmp included: a secret there is device-only (a warning: not backed up, but at rest until iOS \
            purges it), elsewhere backed up (an error). The value is never shown, only the line, the kind and the length.
            """,
        source: "\(Guidance.mastg0302) ; https://mas.owasp.org/MASWE/MASVS-STORAGE/MASWE-0001/",
        defaultSeverity: .warning, severityNote: "error when backed up or in shared Documents",
        fix: """
            Do not log credentials or headers (redact them in the logger); ship keys through the Keychain or a \
            server, never in a file the app writes; delete logs that held them.
            """,
        examples: [
            RuleExample(
                "a bearer token in a network log, and a cloud key in a config file", expectedFindings: 2,
                sensitive: [
                    ("Library/Application Support/Logs/network.log", .textFile, "line 12", .authorizationHeader, 36),
                    ("Documents/config.json", .textFile, "line 4", .cloudAccessKey, 20),
                ]
            ) { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Library/Application Support/Logs/network.log", apparentBytes: 9_000)
                builder.add("Documents/config.json", apparentBytes: 300)
            },
            RuleExample("text files that hold no secret", expectedFindings: 0) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 300)
            },
        ], references: ["MASTG-TEST-0302", "MASWE-0001", "MASTG-TEST-0215", "MASTG-TEST-0299"])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] { SensitiveDataFindings.findings(.textFile, in: context) }
}
