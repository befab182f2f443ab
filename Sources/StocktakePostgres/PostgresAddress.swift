import StocktakeHistory
import StocktakeModel

/// Where a shared history lives, from a libpq connection URL (`postgresql://user@host:5432/db?sslmode=require`),
/// completed as libpq completes it: `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE`, `PGCONNECT_TIMEOUT`
/// for what the URL leaves out, and the password from the URL, else `PGPASSWORD`, else the password file
/// (`PGPASSFILE`, default `~/.pgpass`). The password is never part of `description`: messages and logs name the
/// server by `postgresql://user@host:port/db` only.
package struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq's `sslmode` (`allow` is taken as `prefer`).
    package enum TLSMode: String, Sendable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
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
    /// The certificates `verify-ca` and `verify-full` trust (`sslrootcert`); nil: the system's.
    package let rootCertificate: String?
    package let password: String?
    package let passwordSource: PasswordSource

    package static func isServerURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    package var description: String {
        let user = Hex.percentEncoded(user.utf8)
        let database = Hex.percentEncoded(database.utf8)
        if host.hasPrefix("/") {
            let folder = Hex.percentEncoded(host.utf8, keeping: [UInt8(ascii: "/")])
            return "postgresql://\(user)@/\(database)?host=\(folder)" + (port == 5432 ? "" : "&port=\(port)")
        }
        return "postgresql://\(user)@\(endpoint)/\(database)"
    }

    /// The Unix socket's path when `host` is a folder.
    package var socketPath: String? { host.hasPrefix("/") ? "\(host)/.s.PGSQL.\(port)" : nil }

    /// Where the server listens: its socket's path, or `host:port` (an IPv6 address in brackets).
    var endpoint: String { socketPath ?? "\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// The folders libpq's builds keep the server's socket in (Debian's, and the source default macOS builds use).
    static let defaultSocketFolders = ["/var/run/postgresql", "/tmp"]

    /// Parses `url` and completes it as libpq does: from `environment`, the account running the command (`account`:
    /// libpq's last word on the user), the password file (read through `readFile`, which returns nil when there is
    /// none, and whether others can read it: such a file is ignored, as libpq ignores it), and the files that exist
    /// (`exists`: the server's socket in a default folder, `~/.postgresql/root.crt`).
    package static func parse(
        _ url: String, environment: [String: String], account: String? = nil,
        readFile: (String) -> (contents: String, othersCanRead: Bool)? = { _ in nil },
        exists: (String) -> Bool = { _ in false }
    ) throws(HistoryError) -> PostgresAddress {
        func invalid(_ why: String) -> HistoryError {
            HistoryError(
                store: "given by --history", kind: .failed,
                message: "is not a PostgreSQL connection URL: \(why) (the form is postgresql://user@host:port/database)"
            )
        }
        let strayAt = invalid(
            "an '@' is where none can be: write an '@', '/' or ':' in a user name or password as %40, %2F or %3A")
        guard isServerURL(url) else { throw invalid("it does not start with postgresql://") }
        var rest = Substring(url.dropFirst(url.hasPrefix("postgresql://") ? 13 : 11))
        // As libpq reads it: the credentials end at the first `@` before any `/` (so a password may hold `?` or `#`),
        // then the host and port end at `/` or `?`, the database at `?`.
        var user: String?
        var password: String?
        if let end = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[end] == "@" {
            let userInfo = rest[..<end]
            rest = rest[rest.index(after: end)...]
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            user = try decoded(parts[0], invalid)
            if parts.count == 2 { password = try decoded(parts[1], invalid) }
        }
        // libpq takes what follows a second `@` in a password (or any `@` after a `/` or `?` in one) for the host,
        // the database or a parameter, and shows it in its messages. Only a password holds an unescaped `@`: any
        // other is refused, echoing nothing.
        if rest.prefix(while: { $0 != "?" }).contains("@") { throw strayAt }
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
        var rootCertificate: String?
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try decoded(parts[0], invalid)
            if key != "password" && pair.contains("@") { throw strayAt }
            let value = parts.count == 2 ? try decoded(parts[1], invalid) : ""
            switch key {
            case "sslmode": tls = value
            case "sslrootcert": rootCertificate = value
            case "connect_timeout": timeout = value
            case "host": host = value
            case "port": portText = Substring(value)
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "application_name", "fallback_application_name": break
            // The key is not repeated: a mistyped URL may have put part of a password there.
            default:
                throw invalid(
                    "a parameter is not supported (these are: sslmode, sslrootcert, connect_timeout, host, port, user, password, dbname, application_name)"
                )
            }
        }

        let givenPort = nonEmpty(portText.map(String.init)) ?? nonEmpty(environment["PGPORT"]) ?? "5432"
        guard let port = Int(givenPort), (1...65535).contains(port) else {
            throw invalid("the port must be a number from 1 to 65535")
        }
        // libpq's default is the server's Unix socket; where there is none, the loopback address.
        let resolvedHost =
            nonEmpty(host) ?? nonEmpty(environment["PGHOST"])
            ?? defaultSocketFolders.first { exists("\($0)/.s.PGSQL.\(port)") } ?? "localhost"
        guard let resolvedUser = nonEmpty(user) ?? nonEmpty(environment["PGUSER"]) ?? nonEmpty(account) else {
            throw invalid("no user: name one in the URL (postgresql://user@host/db) or in PGUSER")
        }
        let resolvedDatabase = nonEmpty(database) ?? nonEmpty(environment["PGDATABASE"]) ?? resolvedUser
        let modeText = nonEmpty(tls) ?? nonEmpty(environment["PGSSLMODE"]) ?? "prefer"
        guard let mode = TLSMode(rawValue: modeText == "allow" ? "prefer" : modeText) else {
            throw invalid("sslmode must be disable, allow, prefer, require, verify-ca or verify-full")
        }
        // 0 (libpq: wait forever) is taken as the default: a cron job must not wait forever. Bounded, so that the
        // limits built on it (in nanoseconds) cannot overflow.
        let timeoutText = nonEmpty(timeout) ?? nonEmpty(environment["PGCONNECT_TIMEOUT"]) ?? "10"
        guard let seconds = Int(timeoutText), (0...maxConnectTimeout).contains(seconds) else {
            throw invalid(
                "connect_timeout (or PGCONNECT_TIMEOUT) must be a whole number of seconds from 0 to \(maxConnectTimeout)"
            )
        }
        let home = nonEmpty(environment["HOME"])
        let roots =
            nonEmpty(rootCertificate) ?? nonEmpty(environment["PGSSLROOTCERT"])
            ?? home.map { $0 + "/.postgresql/root.crt" }.flatMap { exists($0) ? $0 : nil }

        var source = PasswordSource.none
        if let password, !password.isEmpty {
            source = .url
        } else if let fromEnvironment = nonEmpty(environment["PGPASSWORD"]) {
            password = fromEnvironment
            source = .environment
        } else {
            password = nil
            let file = nonEmpty(environment["PGPASSFILE"]) ?? home.map { $0 + "/.pgpass" }
            if let file, let (contents, othersCanRead) = readFile(file), !othersCanRead,
                let found = PasswordFile.password(
                    in: contents, host: resolvedHost, port: port, database: resolvedDatabase, user: resolvedUser)
            {
                password = found
                source = .passwordFile(file)
            }
        }
        return PostgresAddress(
            host: resolvedHost, port: port, user: resolvedUser, database: resolvedDatabase, tls: mode,
            connectTimeoutSeconds: seconds == 0 ? 10 : max(seconds, 2), rootCertificate: roots, password: password,
            passwordSource: source)
    }

    package static let maxConnectTimeout = 3600

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private static func decoded(_ text: Substring, _ invalid: (String) -> HistoryError) throws(HistoryError) -> String {
        guard let decoded = Hex.percentDecoded(text) else { throw invalid("a '%' is not followed by two hex digits") }
        return decoded
    }
}

/// `~/.pgpass`: `host:port:database:user:password` per line, `*` (unescaped) matching anything, `\:` and `\\`
/// escaped, `#` starting a comment; the first matching line wins. A Unix socket's folder matches its path, and
/// `localhost` too when it is a default folder.
enum PasswordFile {
    static func password(in contents: String, host: String, port: Int, database: String, user: String) -> String? {
        let hosts =
            host.hasPrefix("/") && PostgresAddress.defaultSocketFolders.contains(host) ? [host, "localhost"] : [host]
        for line in contents.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if line.hasPrefix("#") { continue }
            let fields = split(line)
            guard fields.count >= 5 else { continue }
            func matches(_ field: (text: String, isWildcard: Bool), _ wanted: [String]) -> Bool {
                field.isWildcard || wanted.contains(field.text)
            }
            if matches(fields[0], hosts) && matches(fields[1], [String(port)]) && matches(fields[2], [database])
                && matches(fields[3], [user])
            {
                return fields[4].text
            }
        }
        return nil
    }

    /// The line's fields, split at unescaped colons; a field is a wildcard only when it is an unescaped `*`.
    private static func split(_ line: Substring) -> [(text: String, isWildcard: Bool)] {
        var fields: [(text: String, isWildcard: Bool)] = []
        var field = ""
        var escapedAny = false
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                escapedAny = true
            } else if character == ":" {
                fields.append((field, field == "*" && !escapedAny))
                field = ""
                escapedAny = false
            } else {
                field.append(character)
            }
        }
        fields.append((field, field == "*" && !escapedAny))
        return fields
    }
}
