import StocktakeModel

/// Session and credential cookies HTTPCookieStorage kept on disk (each outlives the app's process): by a session
/// name or a JWT value; analytics, bot-management and CSRF cookies never count.
enum CookieSecrets {
    static func find(_ cookies: [StoredCookie]) -> [PropertyListSecrets.Hit] {
        cookies.filter(isSession).map {
            PropertyListSecrets.Hit(
                place: "cookie \($0.name) for \($0.domain)", kind: .sessionCookie, length: $0.value.count)
        }
    }

    private static func isSession(_ cookie: StoredCookie) -> Bool {
        let name = cookie.name.lowercased()
        let value = cookie.value
        // CSRF tokens protect a form; they authenticate nobody.
        guard !analytics.contains(where: { name.hasPrefix($0) }), !name.contains("csrf"), !name.contains("xsrf"),
            !value.isEmpty,
            !visitorCookies.contains(where: { $0.name == name && cookie.domain.lowercased().hasSuffix($0.domain) })
        else { return false }
        if SecretShapes.isJWT(Substring(value)) { return true }
        // A service's documented session cookie: its value is the session whatever it looks like (Facebook's
        // `c_user` is the account's number, half of the `xs` pair), but never a UUID, a word or a template.
        if knownSessionCookies.contains(where: { $0.name == name }) {
            return value.count >= 8 && !SecretRandomness.isUUID(value) && !SecretRandomness.isTemplate(value)
                && !SecretRandomness.isIdentifier(value)
        }
        let bare =
            ["__secure-", "__host-"].first(where: name.hasPrefix).map { String(name.dropFirst($0.count)) } ?? name
        let named =
            sessionNames.contains {
                bare == $0 || bare.hasSuffix("_" + $0) || bare.hasSuffix("." + $0) || bare.hasSuffix("-" + $0)
            }
            || [.token, .password, .apiKey, .authorizationHeader].contains(SecretNames.kind(ofName: cookie.name))
        // Other names vouch for a session only with a value random enough to be one (`SecretNames.secretLength`):
        // not a UUID (a visit id), a word, a run or a template.
        return named && SecretNames.secretLength(value, as: .token, name: cookie.name) != nil
    }

    /// Session cookies of large services, by their documented names (lowercased).
    private static let knownSessionCookies: [(name: String, source: String)] = [
        // https://policies.google.com/technologies/cookies ("SID" and "HSID" … to authenticate users)
        ("sid", "Google"), ("hsid", "Google"), ("ssid", "Google"), ("apisid", "Google"), ("sapisid", "Google"),
        ("lsid", "Google"), ("__secure-1psid", "Google"), ("__secure-3psid", "Google"), ("__secure-1papisid", "Google"),
        ("__secure-3papisid", "Google"), ("__host-1plsid", "Google"), ("__host-3plsid", "Google"),
        ("__host-gaps", "Google"), ("sidcc", "Google"), ("__secure-1psidcc", "Google"), ("__secure-3psidcc", "Google"),
        ("__secure-1psidts", "Google"), ("__secure-3psidts", "Google"), ("smsv", "Google"),
        // https://www.facebook.com/policy/cookies/ ("c_user" and "xs" … keep you logged in)
        ("xs", "Facebook"), ("c_user", "Facebook"),
        // https://www.tiktok.com/legal/page/global/cookie-policy/en (login: sessionid, sid_tt, sid_guard, uid_tt, …)
        ("sessionid_ss", "TikTok"), ("sid_tt", "TikTok"), ("sid_guard", "TikTok"), ("uid_tt", "TikTok"),
        ("uid_tt_ss", "TikTok"), ("multi_sids", "TikTok"), ("cmpl_token", "TikTok"), ("odin_tt", "TikTok"),
        ("d_ticket", "TikTok"), ("sid_ucp_v1", "TikTok"), ("ssid_ucp_v1", "TikTok"),
        // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/private-content-setting-signed-cookie-custom-policy.html
        // (the policy and its signature grant access; CloudFront-Key-Pair-Id names a public key and is not here)
        ("cloudfront-signature", "Amazon CloudFront"), ("cloudfront-policy", "Amazon CloudFront"),
    ]

    /// Cookies named like sessions that every visitor gets, signed in or not: anti-bot and visit ids.
    private static let visitorCookies: [(name: String, domain: String)] = [
        // TikTok's web SDK rotates msToken for every visitor (anti-bot), signed in or not
        ("mstoken", "tiktok.com"), ("mstoken", "tiktokv.com"), ("mstoken", "tiktokv.eu"), ("mstoken", "tiktokv.us"),
        ("mstoken", "tiktokw.eu"), ("mstoken", "tiktokw.us"), ("mstoken", "ttapis.com"),
        // Proton's web apps set Session-Id for every visitor; account sessions are the AUTH-<uid> and REFRESH-<uid> cookies
        // (https://github.com/ProtonMail/WebClients)
        ("session-id", "proton.me"),
    ]

    private static let sessionNames = [
        "sessionid", "session", "sess", "sid", "phpsessid", "jsessionid", "aspsessionid", "asp.net_sessionid",
        "connect.sid", "auth", "authtoken", "auth_token", "access_token", "token", "jwt", "remember_token",
        "remember_me", "rememberme", "login", "user_session", "logged_in_session", "_session", "laravel_session",
    ]

    /// Analytics, consent and bot-management cookies: name prefixes, lowercased.
    private static let analytics = [
        "_ga", "_gid", "_gat", "_gcl", "__utm", "_fbp", "_fbc", "__cfduid", "__cf_bm", "cf_clearance", "_hj", "mp_",
        "amplitude", "ajs_", "_uet", "optimizely", "_clck", "_clsk", "datadome", "awsalb", "visid_incap_", "incap_ses_",
        "nlbi_",
    ]
}
