#if PostgreSQL
    import Foundation
    import TestSupport
    import Testing

    /// The shared history on a server that takes TLS only (`postgres_cluster.sh start-tls`: a throwaway CA, and a
    /// certificate naming localhost), through the binary: every sslmode that encrypts records, and a certificate
    /// that fails its check is refused with the check that failed and what to set.
    @Suite(
        .enabled(if: TLSServer.enabled, "needs `eval \"$(Tests/Scripts/postgres_cluster.sh start-tls /tmp/pgtls)\"`"))
    struct TLSSharedHistoryTests {
        @Test func everyModeThatEncryptsRecordsAndDisableIsRefused() throws {
            let tree = try TemporaryTree("tls")
            let report = try SharedHistory.sampleReport(in: tree)
            let database = try TLSServer.freshDatabase()
            defer { TLSServer.drop(database) }
            for (mode, host) in [
                ("prefer", "127.0.0.1"), ("require", "127.0.0.1"), ("verify-ca", "127.0.0.1"),
                ("verify-full", "localhost"),
            ] {
                let url = try TLSServer.url(database: database, host: host, mode: mode, roots: TLSServer.file("ca.pem"))
                let result = try TLSServer.record(report, url, source: mode.replacingOccurrences(of: "-", with: "_"))
                #expect(result.status == 0, "\(mode): \(result.stderr)")
            }
            #expect(try TLSServer.psql(database, "SELECT count(*) FROM runs") == "4\n")
            let plain = try TLSServer.record(
                report, try TLSServer.url(database: database, host: "127.0.0.1", mode: "disable", roots: nil))
            #expect(plain.status == 1)
            #expect(
                plain.stderr.contains("(it may take TLS connections only: set sslmode=require"), "\(plain.stderr)")
        }

        @Test func aCertificateOfAnUntrustedCAIsRefusedSayingSo() throws {
            let tree = try TemporaryTree("tls")
            let report = try SharedHistory.sampleReport(in: tree)
            let database = try TLSServer.freshDatabase()
            defer { TLSServer.drop(database) }
            // No sslrootcert, and a home without ~/.postgresql/root.crt: the system's roots, which lack the test CA.
            let result = try TLSServer.record(
                report, try TLSServer.url(database: database, host: "localhost", mode: "verify-full", roots: nil),
                environment: ["HOME": tree.path(".")])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains(
                    "sent a certificate that fails the check of sslmode=verify-full: it is not signed by a CA this machine trusts"
                ), "\(result.stderr)")
            #expect(result.stderr.contains("set sslrootcert to the certificate of the CA"))
            TLSServer.expectNoBuildNoise(result.stderr)
        }

        @Test func aCertificateForAnotherHostIsRefusedSayingSo() throws {
            let tree = try TemporaryTree("tls")
            let report = try SharedHistory.sampleReport(in: tree)
            let database = try TLSServer.freshDatabase()
            defer { TLSServer.drop(database) }
            let result = try TLSServer.record(
                report,
                try TLSServer.url(
                    database: database, host: "127.0.0.1", mode: "verify-full", roots: TLSServer.file("ca.pem")))
            #expect(result.status == 1)
            #expect(result.stderr.contains("it does not name the host 127.0.0.1"), "\(result.stderr)")
            #expect(result.stderr.contains("set sslmode=verify-ca"))
            TLSServer.expectNoBuildNoise(result.stderr)
        }

        /// A listener that answers PostgreSQL's SSLRequest and serves the CA's expired certificate.
        @Test func anExpiredCertificateIsRefusedSayingWhen() throws {
            let tree = try TemporaryTree("tls")
            let report = try SharedHistory.sampleReport(in: tree)
            let listener = Process()
            listener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            listener.arguments = [
                "python3", "-c",
                """
                import socket, ssl, sys
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.load_cert_chain(sys.argv[1], sys.argv[2])
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5); s.settimeout(120)
                print(s.getsockname()[1], flush=True)
                while True:
                    held = s.accept()[0]
                    held.settimeout(30)
                    try:
                        held.recv(8); held.sendall(b"S")
                        context.wrap_socket(held, server_side=True).close()
                    except (OSError, ssl.SSLError): pass
                    held.close()
                """,
                try TLSServer.file("expired.pem"), try TLSServer.file("expired.key"),
            ]
            let output = Pipe()
            listener.standardOutput = output
            listener.standardError = FileHandle.nullDevice
            try listener.run()
            defer { kill(listener.processIdentifier, SIGKILL) }
            let port = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(Int(port) != nil, "the listener printed '\(port)'")
            let url =
                "postgresql://stocktake@127.0.0.1:\(port)/db?sslmode=verify-ca&sslrootcert=\(try TLSServer.file("ca.pem"))"
            let result = try TLSServer.record(report, url)
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("fails the check of sslmode=verify-ca: it expired on 2020-01-02"),
                "\(result.stderr)")
            TLSServer.expectNoBuildNoise(result.stderr)
        }

        @Test func anUnreadableRootCertificateFileIsSaidSo() throws {
            let tree = try TemporaryTree("tls")
            let report = try SharedHistory.sampleReport(in: tree)
            let database = try TLSServer.freshDatabase()
            defer { TLSServer.drop(database) }
            let missing = tree.path("no-such-ca.pem")
            let result = try TLSServer.record(
                report, try TLSServer.url(database: database, host: "localhost", mode: "verify-full", roots: missing))
            #expect(result.status == 1)
            #expect(result.stderr.contains("sslrootcert (\(missing)) is not a readable file of PEM certificates"))
        }
    }

    /// The TLS-only cluster `.ci/run` starts beside the plain one.
    enum TLSServer {
        struct Missing: Error {
            let what: String
            init(_ what: String) { self.what = what }
        }

        private static let environment = ProcessInfo.processInfo.environment
        static let url = environment["STOCKTAKE_POSTGRES_TLS_URL"]
        static var enabled: Bool { url != nil || OutsideTools.inCI }

        static func file(_ name: String) throws -> String {
            guard let folder = environment["STOCKTAKE_POSTGRES_TLS_FILES"] else {
                throw Missing("no STOCKTAKE_POSTGRES_TLS_FILES")
            }
            return folder + "/" + name
        }

        /// The server's URL for `database`, reached at `host` with `mode` (and `roots` as sslrootcert).
        static func url(database: String, host: String, mode: String, roots: String?) throws -> String {
            guard let url, let port = URLComponents(string: url)?.port else {
                throw Missing("no STOCKTAKE_POSTGRES_TLS_URL")
            }
            return "postgresql://stocktake@\(host):\(port)/\(database)?sslmode=\(mode)"
                + (roots.map { "&sslrootcert=\($0)" } ?? "")
        }

        static func freshDatabase() throws -> String {
            let name = "stocktake_tls_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            _ = try psql("postgres", "CREATE DATABASE \(name)")
            return name
        }

        static func drop(_ database: String) {
            _ = try? psql("postgres", "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        }

        static func psql(_ database: String, _ sql: String) throws -> String {
            let result = try StocktakeProcess.runCommand(
                [
                    "psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d",
                    try url(database: database, host: "localhost", mode: "verify-full", roots: file("ca.pem")), "-c",
                    sql,
                ], environment: ["PGPASSWORD": environment["STOCKTAKE_POSTGRES_TLS_PASSWORD"] ?? ""], timeout: 120)
            guard result.status == 0 else {
                throw Missing("psql failed on \(sql): \(result.stderr)")
            }
            return result.stdout
        }

        static func record(
            _ report: String, _ url: String, source: String = "tls", environment: [String: String] = [:]
        ) throws -> ProcessResult {
            try StocktakeProcess.run(
                ["record", report, "--history", url, "--source", source],
                environment: environment.merging([
                    "PGPASSWORD": Self.environment["STOCKTAKE_POSTGRES_TLS_PASSWORD"] ?? ""
                ]) { $1 }, timeout: 120)
        }

        /// TLS failures are said in words: no path of the build, no source file of the TLS library.
        static func expectNoBuildNoise(_ text: String) {
            for noise in [".build", "checkouts", ".cc:", "BoringSSL", "NIOSSL"] {
                #expect(!text.contains(noise), "\(text)")
            }
        }
    }
#endif
