import ArgumentParser
import Foundation
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakePostgres

/// `--history` and `--source`, shared by `nightly`, `history`, `record` and `index`.
struct HistoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The history: a postgresql://user@host:port/db URL (a server many machines share; password from PGPASSWORD, ~/.pgpass or the URL) or an SQLite file.",
            valueName: "url-or-file"))
    var history: String?

    @Option(
        help:
            "The source the runs are recorded under and read from: a stable name for where they come from (a device, a lane; letters, digits, . - _; default: \(RunSeries.defaultSource)). It labels the metrics."
    )
    var source: String = ProcessInfo.processInfo.environment["STOCKTAKE_SOURCE"] ?? RunSeries.defaultSource

    func validate() throws {
        if let problem = RunSeries.problem(withSourceName: source) { throw ValidationError("--source: \(problem)") }
        if let history, history.isEmpty { throw ValidationError("--history needs a URL or a file") }
    }

    /// Whether `--history` names a server.
    var isServer: Bool { history.map(PostgresAddress.isServerURL) ?? false }

    /// Opens what `--history` names, or `fallback` (a file) without it. A file is created only when `create` is set.
    func open(fallback: String, create: Bool) throws(HistoryError) -> any RunHistory {
        try Self.open(history ?? fallback, create: create)
    }

    /// An opener the nightly job calls under its lock, after the inbox is read.
    var opener: (@Sendable () throws(HistoryError) -> any RunHistory)? {
        guard let history else { return nil }
        return { () throws(HistoryError) -> any RunHistory in try Self.open(history, create: true) }
    }

    private static func open(_ url: String, create: Bool) throws(HistoryError) -> any RunHistory {
        guard PostgresAddress.isServerURL(url) else { return try HistoryStore(path: url, createIfMissing: create) }
        // libpq's last resort for the user: the account running the command.
        let account = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) }
        let address = try PostgresAddress.parse(
            url, environment: ProcessInfo.processInfo.environment, account: account, readFile: readPasswordFile,
            exists: { access($0, F_OK) == 0 })
        #if PostgreSQL
            return try PostgresHistory(address: address)
        #else
            throw HistoryError(
                store: address.description, kind: .failed, message: "cannot be used: " + PostgresSupport.missingMessage)
        #endif
    }

    /// The password file, and whether its mode lets others read it (libpq then ignores it, and so do we).
    private static func readPasswordFile(_ path: String) -> (contents: String, othersCanRead: Bool)? {
        var options = RegularFile.Options.named(maxBytes: 1 << 20)
        guard let file = try? RegularFile.open(path, options: &options), let bytes = try? file.readAll() else {
            return nil
        }
        return (String(decoding: bytes, as: UTF8.self), file.status.st_mode & 0o077 != 0)
    }
}

/// The machine's name, as the shared history records who recorded a run.
enum MachineName {
    static var current: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
