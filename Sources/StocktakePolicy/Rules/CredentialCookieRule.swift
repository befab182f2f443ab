import StocktakeModel

/// Persistent session or credential cookies in `Library/Cookies/Cookies.binarycookies`.
struct CredentialCookieRule: Rule {
    static let description = RuleDescription(
        id: "credential-cookie", title: "Persistent session or credential cookie",
        finds: """
            a session or credential cookie kept on disk in `Library/Cookies/Cookies.binarycookies` (analytics \
            cookies such as `_ga` are not)
            """,
        rationale: """
            HTTPCookieStorage writes every cookie with an expiry date to `Library/Cookies/Cookies.binarycookies`, \
            which iOS backs up. A session or authentication cookie there (`sessionid`, `auth_token`, a JWT) lets \
            whoever copies the file act as the user until it expires. Analytics and consent cookies (`_ga`, `_fbp`) \
            are not reported. The value is never shown, only the domain, the name and its length.
            """,
        source: "\(Guidance.mastg0302) ; https://developer.apple.com/documentation/foundation/httpcookiestorage",
        defaultSeverity: .warning, severityNote: "error when backed up",
        fix: """
            Give session cookies no expiry (they then live in memory only), or keep the session token in the \
            Keychain and clear HTTPCookieStorage at logout; use an ephemeral URLSessionConfiguration for \
            authenticated web views that need no persistence.
            """,
        examples: [
            RuleExample(
                "a session cookie that outlives the app's process", expectedFindings: 1,
                sensitive: [(cookieJar, .cookies, "cookie sessionid for .example.com", .sessionCookie, 32)]
            ) { builder in builder.add(cookieJar, apparentBytes: 600) },
            RuleExample("a cookie store with analytics cookies only", expectedFindings: 0) { builder in
                builder.add(cookieJar, apparentBytes: 600)
            },
        ], references: ["MASTG-TEST-0302", "MASWE-0006", "MASTG-TEST-0215", "MASTG-TEST-0299"])

    private static let cookieJar = "Library/Cookies/Cookies.binarycookies"

    func evaluate(_ context: PolicyContext) -> [RuleFinding] { SensitiveDataFindings.findings(.cookies, in: context) }
}
