#if PostgreSQL
    import NIOCore
    import NIOSSL
    import PostgresNIO
    import StocktakeHistory
    import StocktakeModel

    /// A failed call to the server, worded for the person running the job: what happened and what to check. The
    /// password is never part of it (the server's messages do not hold it, and the address is shown without it).
    enum PostgresFailure {
        static func describe(_ error: any Error, address: PostgresAddress, action: String) -> HistoryError {
            let store = address.description
            func failure(_ kind: HistoryError.Kind, _ message: String) -> HistoryError {
                HistoryError(store: store, kind: kind, message: message)
            }
            guard let error = error as? PSQLError else {
                return failure(.unreachable, "could not be \(action): \(reason(error, address))")
            }
            switch error.code {
            case .server:
                let (kind, message) = server(error, address: address, action: action)
                return failure(kind, message)
            case .authMechanismRequiresPassword:
                return failure(
                    .refused,
                    "asks for a password for user \(address.user) and none was given: set PGPASSWORD, add a line to ~/.pgpass (host:port:database:user:password, mode 0600), or put it in the URL"
                )
            case .unsupportedAuthMechanism, .saslError:
                return failure(
                    .refused,
                    "asks for a way of logging in that this client does not support (it supports password, md5 and SCRAM-SHA-256): \(error.code)"
                )
            case .sslUnsupported:
                return failure(
                    .refused,
                    "does not accept TLS, and sslmode=\(address.tls.rawValue) requires it: enable ssl on the server, or use sslmode=prefer"
                )
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
                if error.code == .connectionError || (action == "opened" && error.underlying != nil) {
                    return failure(
                        .unreachable,
                        "could not be reached: \(error.underlying.map { reason($0, address) } ?? "the connection failed") (is the server running, and listening on \(address.endpoint)?)"
                    )
                }
                if action == "opened" {
                    return failure(
                        .unreachable,
                        "closed the connection before the login finished (is it a PostgreSQL server at \(address.endpoint), taking connections from this machine?)"
                    )
                }
                return failure(
                    .unreachable,
                    "closed the connection while it was being \(action) (the server stopped, or the network failed); nothing half-done was kept, and the next run tries again"
                )
            default:
                return failure(.failed, "could not be \(action): the client failed (\(error.code))")
            }
        }

        /// An error the server sent, by its SQLSTATE.
        private static func server(_ error: PSQLError, address: PostgresAddress, action: String) -> (
            HistoryError.Kind, String
        ) {
            let state = error.serverInfo?[.sqlState] ?? ""
            let said = VisibleText.render(error.serverInfo?[.message] ?? "no message", as: .message)
            switch state {
            case "28P01":
                let from =
                    switch address.passwordSource {
                    case .url: "the URL"
                    case .environment: "PGPASSWORD"
                    case .passwordFile(let path): path
                    case .none: "nowhere: none was given"
                    }
                return (
                    .refused,
                    "refused the password for user \(address.user) (the password came from \(from)): check it, or the user's password on the server"
                )
            case "28000":
                // The server's words for a pg_hba.conf that has hostssl lines only, met without TLS.
                let tlsOnly = address.tls == .disable && said.hasSuffix("no encryption")
                return (
                    .refused,
                    "refused user \(address.user): \(said) "
                        + (tlsOnly
                            ? "(it may take TLS connections only: set sslmode=require, or verify-full with sslrootcert)"
                            : "(check the user, and the server's pg_hba.conf for this host)")
                )
            case "3D000":
                return (
                    .refused, "has no database \(address.database): create it (createdb) or name another in the URL"
                )
            case "42501":
                return (
                    .refused,
                    "does not let user \(address.user) do this: \(said) (the recording user needs to create tables the first time, then to read and write them)"
                )
            case "57P01", "57P02", "57P03", "53300":
                return (
                    .unreachable,
                    "is not taking work now: \(said); nothing half-done was kept, and the next run tries again"
                )
            case "57014":
                return (
                    .failed,
                    "could not be \(action): a statement took longer than its limit (60 s); nothing half-done was kept"
                )
            case "55P03":
                return (
                    .failed,
                    "could not be \(action): waited 30 s for a lock another session holds (a long migration, or a session left open by hand); nothing half-done was kept"
                )
            default:
                return (.failed, "could not be \(action): the server said: \(said) (SQLSTATE \(state))")
            }
        }

        /// A connection failure in a few words, without the Swift type names a person cannot act on.
        private static func reason(_ error: any Error, _ address: PostgresAddress) -> String {
            if let channel = error as? ChannelError, case .connectTimeout = channel {
                return "no answer within \(address.connectTimeoutSeconds) s"
            }
            if let tls = error as? NIOSSLError {
                // BoringSSL's reasons (`WRONG_VERSION_NUMBER`), without its files.
                let reasons = "\(tls)".split(separator: "OPENSSL_internal:", omittingEmptySubsequences: false)
                    .dropFirst()
                    .map { String($0.prefix { $0.isUppercase || $0.isNumber || $0 == "_" }) }.filter { !$0.isEmpty }
                return "the TLS handshake failed" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
            }
            let text = "\(error)"
            let known: [(String, String)] = [
                ("UnknownHost", "unknown host \(address.host)"), ("refused", "connection refused"),
                ("Connection reset", "connection reset"),
                ("No such file", "no server socket at \(address.socketPath ?? address.host)"),
                ("unreachable", "network unreachable"), ("getaddrinfo", "unknown host \(address.host)"),
                ("lookup", "unknown host \(address.host)"), ("timed out", "timed out"),
                ("connectTimeout", "no answer within \(address.connectTimeoutSeconds) s"),
            ]
            for (needle, said) in known where text.contains(needle) { return said }
            return VisibleText.render(text.count > 200 ? String(text.prefix(200)) + "…" : text, as: .message)
        }
    }
#endif
