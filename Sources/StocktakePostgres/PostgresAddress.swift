import StocktakeHistory
import StocktakeModel

/// Where a shared history lives, from a libpq connection URL (`postgresql://user@host:5432/db?sslmode=require`),
/// completed as libpq completes it: `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE`, `PGCONNECT_TIMEOUT`
/// for what the URL leaves out, and the password from the URL, else `PGPASSWORD`, else the password file
/// (`PGPASSFILE`, default `~/.pgpass`). The password is never part of `description`: messages and logs name the
/// server by `postgresql://user@host:port/db` only.
package struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq's `sslmode` (`allow` is taken as `prefer`).
    package enum TLSMode: String, Sendable, CaseIterable {
        case disable, prefer, require
        /// Encrypted, and the server's certificate must chain to a trusted root.
        case verifyCA = "verify-ca"
        /// As `verifyCA`, and the certificate must name the host.
        case verifyFull = "verify-full"
    }

    /// Where the password came from, so a refusal can say what to check without showing it.
    package enum PasswordSource: Sendable, Equatable {
        case url, environment
        case passwordFile(String)
        case none
    }

    /// A host name or address; a path (starting with `/`) is the folder of the server's Unix socket.
    package let host: String
    package let port: Int
    package let user: String
    package let database: String
    package let tls: TLSMode
    package let connectTimeoutSeconds: Int
    package let password: String?
    package let passwordSource: PasswordSource

    /// Whether `text` names a server rather than a file: it starts with `postgresql://` or `postgres://`.
    package static func isServerURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// The server's address without its password, for every message.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgresql://\(Hex.percentEncoded(user.utf8))@\(shownHost):\(port)/\(Hex.percentEncoded(database.utf8))"
    }

    /// The Unix socket's path when `host` is a folder.
    package var socketPath: String? { host.hasPrefix("/") ? "\(host)/.s.PGSQL.\(port)" : nil }

    /// Parses `url` and completes it from `environment` and the password file (read through `readFile`, which
    /// returns nil when there is none, and the file's mode, to ignore a file others can read, as libpq does).
    package static func parse(
        _ url: String, environment: [String: String],
        readFile: (String) -> (contents: String, othersCanRead: Bool)? = { _ in nil }
    ) throws(HistoryError) -> PostgresAddress {
        func invalid(_ why: String) -> HistoryError {
            HistoryError(
                store: "given by --history", kind: .failed,
                message: "is not a PostgreSQL connection URL: \(why) (the form is postgresql://user@host:port/database)"
            )
        }
        let scheme = url.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        guard isServerURL(url) else { throw invalid("it does not start with postgresql://") }
        var rest = Substring(url.dropFirst(scheme.count))
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        var user: String?
        var password: String?
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try decoded(userInfo[..<colon], invalid)
                password = try decoded(userInfo[userInfo.index(after: colon)...], invalid)
            } else {
                user = try decoded(userInfo, invalid)
            }
        }
        var host: String?
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("an IPv6 address misses its ']'") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw invalid("unexpected text after the IPv6 address")
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = try decoded(rest[..<colon], invalid)
            portText = rest[rest.index(after: colon)...]
        } else if !rest.isEmpty {
            host = try decoded(rest, invalid)
        }
        if host?.contains(",") == true { throw invalid("several hosts are not supported; give one") }
        var database = path.isEmpty ? nil : try decoded(path, invalid)
        var tls: String?
        var timeout: String?
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try decoded(parts[0], invalid)
            let value = parts.count == 2 ? try decoded(parts[1], invalid) : ""
            switch key {
            case "sslmode": tls = value
            case "connect_timeout": timeout = value
            case "host": host = value
            case "port": portText = Substring(value)
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "application_name", "fallback_application_name": break
            default: throw invalid("the parameter '\(VisibleText.render(key, as: .message))' is not supported")
            }
        }

        let resolvedHost = nonEmpty(host) ?? nonEmpty(environment["PGHOST"]) ?? "localhost"
        let port: Int
        if let text = nonEmpty(portText.map(String.init)) ?? nonEmpty(environment["PGPORT"]) {
            guard let number = Int(text), (1...65535).contains(number) else {
                throw invalid("the port must be a number from 1 to 65535")
            }
            port = number
        } else {
            port = 5432
        }
        guard let resolvedUser = nonEmpty(user) ?? nonEmpty(environment["PGUSER"]) ?? nonEmpty(environment["USER"])
        else { throw invalid("no user: name one in the URL (postgresql://user@host/db) or in PGUSER") }
        let resolvedDatabase = nonEmpty(database) ?? nonEmpty(environment["PGDATABASE"]) ?? resolvedUser
        let modeText = nonEmpty(tls) ?? nonEmpty(environment["PGSSLMODE"]) ?? "prefer"
        guard let mode = TLSMode(rawValue: modeText == "allow" ? "prefer" : modeText) else {
            throw invalid("sslmode must be disable, allow, prefer, require, verify-ca or verify-full")
        }
        let timeoutText = nonEmpty(timeout) ?? nonEmpty(environment["PGCONNECT_TIMEOUT"]) ?? "10"
        guard let seconds = Int(timeoutText), seconds >= 0 else {
            throw invalid("connect_timeout must be a whole number of seconds")
        }

        var source = PasswordSource.none
        if let password, !password.isEmpty {
            source = .url
        } else if let fromEnvironment = nonEmpty(environment["PGPASSWORD"]) {
            password = fromEnvironment
            source = .environment
        } else {
            password = nil
            let file =
                nonEmpty(environment["PGPASSFILE"]) ?? nonEmpty(environment["HOME"]).map { $0 + "/.pgpass" }
            if let file, let (contents, othersCanRead) = readFile(file), !othersCanRead,
                let found = PasswordFile.password(
                    in: contents, host: resolvedHost.hasPrefix("/") ? "localhost" : resolvedHost, port: port,
                    database: resolvedDatabase, user: resolvedUser)
            {
                password = found
                source = .passwordFile(file)
            }
        }
        return PostgresAddress(
            host: resolvedHost, port: port, user: resolvedUser, database: resolvedDatabase, tls: mode,
            connectTimeoutSeconds: seconds == 0 ? 10 : max(seconds, 2), password: password, passwordSource: source)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private static func decoded(_ text: Substring, _ invalid: (String) -> HistoryError) throws(HistoryError) -> String {
        guard let decoded = Hex.percentDecoded(text) else { throw invalid("a '%' is not followed by two hex digits") }
        return decoded
    }
}

/// `~/.pgpass`: `host:port:database:user:password` per line, `*` matching anything, `\:` and `\\` escaped, `#`
/// starting a comment; the first matching line wins.
enum PasswordFile {
    static func password(in contents: String, host: String, port: Int, database: String, user: String) -> String? {
        for line in contents.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if line.hasPrefix("#") { continue }
            let fields = split(line)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields, wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// The line's fields, split at unescaped colons (the password, last, keeps any colons after the fourth).
    private static func split(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
