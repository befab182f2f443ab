import Foundation
import Testing

/// The PostgreSQL server the shared-history tests run against: `.ci/run` starts a throwaway cluster with
/// `Tests/Scripts/postgres_cluster.sh` and exports `STOCKTAKE_POSTGRES_URL` (a superuser on loopback, password
/// auth), `STOCKTAKE_POSTGRES_PASSWORD`, and the script and its folder to stop and restart it. Without them (a
/// developer's machine) the tests skip; under CI they fail. `psql` is the oracle that creates each test's database
/// and counts its rows.
package enum PostgresServer {
    private static let environment = ProcessInfo.processInfo.environment
    package static let url = environment["STOCKTAKE_POSTGRES_URL"]
    package static let password = environment["STOCKTAKE_POSTGRES_PASSWORD"] ?? ""

    /// For `.enabled(if:)`: a server is named, or CI requires one (then its absence fails the test).
    package static var enabled: Bool { url != nil || OutsideTools.inCI }
    package static let hint: Comment =
        "needs a PostgreSQL server: `eval \"$(Tests/Scripts/postgres_cluster.sh start /tmp/pg)\"` starts one and names it; CI=true turns this skip into a failure"

    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// A database of its own for one test, dropped when the object goes.
    package final class Database: @unchecked Sendable {
        package let name: String
        /// Its URL, without the password (the tests pass it as PGPASSWORD, as a user would).
        package let url: String

        init(name: String, url: String) {
            self.name = name
            self.url = url
        }

        /// Runs `sql` with psql and returns what it printed (unaligned, tuples only).
        @discardableResult
        package func psql(_ sql: String) throws -> String {
            try PostgresServer.psql(url, sql)
        }

        /// One number `sql` selects.
        package func count(_ sql: String) throws -> Int {
            let text = try psql(sql).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let number = Int(text) else { throw Unavailable(description: "psql answered '\(text)' to \(sql)") }
            return number
        }

        deinit {
            _ = try? PostgresServer.psql(
                try! PostgresServer.serverURL(), "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    /// A new, empty database on the test server.
    package static func freshDatabase() throws -> Database {
        let server = try serverURL()
        let name = "stocktake_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try psql(server, "CREATE DATABASE \(name)")
        return Database(name: name, url: databaseURL(server, name))
    }

    /// The server's URL, or why there is none.
    package static func serverURL() throws -> String {
        guard let url else { throw Unavailable(description: "no PostgreSQL server: \(hint)") }
        return url
    }

    /// `url` with its database replaced by `name`.
    package static func databaseURL(_ url: String, _ name: String) -> String {
        guard let scheme = url.range(of: "://"), let slash = url[scheme.upperBound...].firstIndex(of: "/") else {
            return url + "/" + name
        }
        let query = url[slash...].firstIndex(of: "?").map { String(url[$0...]) } ?? ""
        return String(url[..<slash]) + "/" + name + query
    }

    /// The environment a process needs to log in to the test server as a user would: the password in PGPASSWORD.
    package static var loginEnvironment: [String: String] { ["PGPASSWORD": password] }

    /// Stops the server: `immediate` is a crash (no checkpoint; clients cut off mid-statement).
    package static func stop(immediate: Bool) throws {
        try control("stop", immediate ? "immediate" : "fast")
    }

    package static func restart() throws { try control("restart") }

    /// Runs the cluster script with its output in a file. Not through Foundation's `Process`: the server the script
    /// starts outlives it, and `Process` was seen to wait forever for the script's exit then; `posix_spawn` and
    /// `waitpid` do not.
    private static func control(_ arguments: String...) throws {
        guard let script = environment["STOCKTAKE_POSTGRES_CONTROL"],
            let state = environment["STOCKTAKE_POSTGRES_STATE"]
        else { throw Unavailable(description: "no STOCKTAKE_POSTGRES_CONTROL to stop and start the server with") }
        let log = state + ".control.log"
        let command =
            ["/bin/bash", "-c", "exec \"$0\" \"$@\" > \"\(log)\" 2>&1 < /dev/null", script, arguments[0], state]
            + arguments.dropFirst()
        var pid: pid_t = 0
        let argv = command.map { strdup($0) } + [nil]
        // The environment as `NAME=value` strings: `environ` is no variable macOS's headers declare.
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        guard posix_spawn(&pid, "/bin/bash", nil, nil, argv, envp) == 0 else {
            throw Unavailable(description: "could not start postgres_cluster.sh")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Unavailable(description: "postgres_cluster.sh \(arguments[0]) failed: \(said)")
        }
    }

    static func psql(_ url: String, _ sql: String) throws -> String {
        let result = try StocktakeProcess.runCommand(
            ["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql], environment: loginEnvironment,
            timeout: 120)
        guard result.status == 0 else {
            throw Unavailable(description: "psql failed (\(result.status)) on \(sql): \(result.stderr)")
        }
        return result.stdout
    }
}
