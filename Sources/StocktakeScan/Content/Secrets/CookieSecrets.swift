import StocktakeModel

/// Session and credential cookies among the cookies HTTPCookieStorage kept on disk (only cookies with an
/// expiry are written there, so every one found outlives the app's process). A cookie counts when its name is a
/// session or credential name (`sessionid`, `PHPSESSID`, `connect.sid`, `auth_token`, `remember_token`, names
/// `SecretNames` knows) or its value is a JWT; analytics, consent and bot-management cookies (`_ga`, `_fbp`,
/// `__cfduid`, `__utma`) and CSRF tokens are not, whatever their value.
enum CookieSecrets {
    static func find(_ cookies: [StoredCookie]) -> [PropertyListSecrets.Hit] {
        cookies.compactMap { cookie in
            let name = cookie.name.lowercased()
            // CSRF tokens protect a form; they authenticate nobody.
            guard !analytics.contains(where: { name.hasPrefix($0) }), !name.contains("csrf"), !name.contains("xsrf"), !cookie.value.isEmpty
            else { return nil }
            let place = "cookie \(cookie.name) for \(cookie.domain)"
            if SecretShapes.isJWT(Substring(cookie.value)) {
                return PropertyListSecrets.Hit(place: place, kind: .sessionCookie, length: cookie.value.count)
            }
            let bare = name.replacingPrefixes(["__secure-", "__host-"])
            let named = sessionNames.contains { bare == $0 || bare.hasSuffix("_" + $0) || bare.hasSuffix("." + $0) || bare.hasSuffix("-" + $0) }
                || SecretNames.kind(ofName: cookie.name).map { [.token, .password, .apiKey, .authorizationHeader].contains($0) } == true
            guard named, cookie.value.count >= 16 else { return nil }
            return PropertyListSecrets.Hit(place: place, kind: .sessionCookie, length: cookie.value.count)
        }
    }

    private static let sessionNames = [
        "sessionid", "session", "sess", "sid", "phpsessid", "jsessionid", "aspsessionid", "asp.net_sessionid", "connect.sid",
        "auth", "authtoken", "auth_token", "access_token", "token", "jwt", "remember_token", "remember_me", "rememberme", "login",
        "user_session", "logged_in_session", "_session", "laravel_session",
    ]

    private static let analytics = ["_ga", "_gid", "_gat", "_gcl", "__utm", "_fbp", "_fbc", "__cfduid", "__cf_bm", "_hj", "mp_", "amplitude", "ajs_", "_uet", "optimizely", "_clck", "_clsk"]
}

private extension String {
    func replacingPrefixes(_ prefixes: [String]) -> String {
        for prefix in prefixes where hasPrefix(prefix) { return String(dropFirst(prefix.count)) }
        return self
    }
}
