import StocktakeModel

/// Tokens in cached request URLs, `Authorization` headers and secrets in cached bodies of URLCache's `Cache.db`.
struct SecretInURLCacheRule: Rule {
    static let description = RuleDescription(
        id: "secret-in-url-cache", title: "Secret in the URL cache",
        finds: """
            a token in a cached request URL, an `Authorization` header, or a secret in a cached body, in URLCache's \
            `Cache.db` and `fsCachedData/`
            """,
        rationale: """
            URLSession caches responses, with the request that fetched them, in `Library/Caches/<bundle id>/Cache.db` \
            (and large bodies in `fsCachedData/`). A token in a request URL, an `Authorization` header or a secret \
            in a response body (a login response with its token) stays there in clear until the cache is purged. \
            The value is never shown, only the request's host, the header or parameter name, and its length.
            """,
        source: "\(Guidance.mastg0302) ; https://developer.apple.com/documentation/foundation/urlcache",
        defaultSeverity: .warning,
        fix: """
            Keep authenticated responses out of the cache (`urlCache = nil` or an ephemeral configuration for those \
            requests, or `.notAllowed` / `.allowedInMemoryOnly` from `urlSession(_:dataTask:willCacheResponse:)`), \
            send tokens in headers rather than URLs, and clear URLCache at logout.
            """,
        examples: [
            RuleExample(
                "an Authorization header and a token in a URL", expectedFindings: 2,
                sensitive: [
                    (cacheDB, .urlCache, "request to api.example.com, header Authorization", .authorizationHeader, 40),
                    (cacheDB, .urlCache, "request to api.example.com, parameter access_token", .token, 32),
                ]
            ) { builder in builder.add(cacheDB, apparentBytes: 90_000, kind: .sqlite, flags: .systemManaged) },
            RuleExample("a cache of public images", expectedFindings: 0) { builder in
                builder.add(cacheDB, apparentBytes: 90_000, kind: .sqlite, flags: .systemManaged)
            },
        ], references: ["MASTG-TEST-0302", "MASWE-0006", "MASTG-TEST-0299"])

    private static let cacheDB = "Library/Caches/com.example.app/Cache.db"

    func evaluate(_ context: PolicyContext) -> [RuleFinding] { SensitiveDataFindings.findings(.urlCache, in: context) }
}
