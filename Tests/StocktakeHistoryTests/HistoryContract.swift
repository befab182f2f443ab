import Foundation
import StocktakeModel
import StocktakePolicy
import TestSupport
import Testing

@testable import StocktakeHistory

/// A history under test, on either engine: a new, empty store, how to open it again (as another process would), and
/// what its tables hold, read past the store (SQLite's own connection, or psql).
protocol HistoryUnderTest: AnyObject {
    var history: any RunHistory { get }
    /// The store opened again, as another process would.
    func reopen() throws -> any RunHistory
    func rowCount(_ table: String) throws -> Int
    /// The columns of each of the schema's tables, in order.
    func columns() throws -> [String: [String]]
    /// Runs SQL the engine takes as it is (to build old schemas and hostile states).
    func execute(_ sql: String) throws
    /// Sets the schema version the store says it has.
    func setVersion(_ version: Int) throws
}

/// The engines a history runs on: SQLite always, PostgreSQL with the trait and a server (`PostgresServer`).
enum HistoryEngine: String, CaseIterable, Sendable {
    case sqlite, postgresql

    static var available: [HistoryEngine] {
        #if PostgreSQL
            PostgresServer.enabled ? allCases : [.sqlite]
        #else
            [.sqlite]
        #endif
    }

    func store() throws -> any HistoryUnderTest {
        #if PostgreSQL
            if self == .postgresql { return try PostgresUnderTest() }
        #endif
        return try SQLiteUnderTest()
    }
}

/// The contract, clause by clause, each held against every available engine.
@Suite struct HistoryContractTests {
    enum Clause: String, CaseIterable, Sendable {
        case readsBack, replaces, sourcesApart, oldestFirst, bound, sameRuns, schema, noHalfRuns, newerRefused
    }

    @Test(arguments: HistoryEngine.available, Clause.allCases)
    func holds(on engine: HistoryEngine, _ clause: Clause) async throws {
        try await onThread {
            let store = try engine.store()
            switch clause {
            case .readsBack: try HistoryContract.aRecordedRunReadsBackIdentically(store)
            case .replaces: try HistoryContract.recordingTheSameRunAgainReplacesIt(store)
            case .sourcesApart: try HistoryContract.theSameRunIDFromTwoSourcesIsTwoRuns(store)
            case .oldestFirst: try HistoryContract.runsComeOldestFirstAndLimited(store)
            case .bound: try HistoryContract.textIsBoundNotSpliced(store)
            case .sameRuns: try HistoryContract.everyEngineTakesTheSameRuns(store)
            case .schema: try HistoryContract.aNewStoreHasTheSchemaSQLiteMakes(store)
            case .noHalfRuns: try HistoryContract.aReaderNeverSeesHalfARun(store)
            case .newerRefused: try HistoryContract.aStoreFromANewerStocktakeIsRefusedUntouched(store)
            }
        }
    }
}

/// Runs `work` on a thread of its own and awaits it. A PostgreSQL store blocks its calling thread until its task on
/// the concurrency pool is done: a test calling it from a pool thread would take a pool thread from that task.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// What every history must do (`RunHistory`'s contract), written once and run against each engine.
enum HistoryContract {
    static let chat = "com.example.chat"

    static func run(
        _ runID: String, app: String = chat, source: String = RunSeries.defaultSource, onDisk: Int64 = 1_000_000,
        findings: [FindingCount] = [FindingCount(rule: "documents-hidden-data", severity: .warning, count: 2)]
    ) -> HistoryRun {
        var byLocation: [Location: SizeTotal] = [:]
        for (index, location) in Location.allCases.enumerated() {
            byLocation[location] = SizeTotal(
                files: index + 1, apparentBytes: onDisk / 16 - Int64(index), allocatedBytes: onDisk / 16)
        }
        return HistoryRun(
            bundleIdentifier: app, runID: runID, generatedAt: "2026-11-21T02:00:00Z", toolVersion: "0.1.0",
            appVersion: "2.1", onDisk: SizeTotal(files: 20, apparentBytes: onDisk - 4096, allocatedBytes: onDisk),
            documentsAndData: SizeTotal(files: 8, apparentBytes: onDisk / 2 - 1, allocatedBytes: onDisk / 2),
            purgeable: SizeTotal(files: 7, apparentBytes: onDisk / 8, allocatedBytes: onDisk / 8),
            byLocation: byLocation,
            backedUpBytes: 4096, excludedBytes: 8192, unknownBackupBytes: 12_288,
            findingsBySeverity: [.warning: findings.reduce(0) { $0 + $1.count }], findings: findings, status: .clean,
            source: source, recordedBy: "farm-mac-3", reportLocation: "/srv/reports/\(app)/\(runID)",
            durationSeconds: 12.5)
    }

    static func aRecordedRunReadsBackIdentically(_ store: some HistoryUnderTest) throws {
        let run = run(
            "2026-11-21T020000Z",
            findings: [
                FindingCount(rule: "tmp-leftovers", severity: .error, count: 3),
                FindingCount(rule: "tmp-leftovers", severity: .note, count: 1),
            ])
        try store.history.record(run)
        #expect(try store.history.runs(of: run.series, limit: 30) == [run])
        let back = try store.reopen().runs(of: run.series, limit: 1)
        #expect(back == [run])
    }

    static func recordingTheSameRunAgainReplacesIt(_ store: some HistoryUnderTest) throws {
        for size in [1_000_000, 2_000_000, 3_000_000] as [Int64] {
            try store.history.record(run("2026-11-21T020000Z", onDisk: size))
        }
        let runs = try store.history.runs(of: RunSeries(bundleIdentifier: chat), limit: 30)
        #expect(runs.map(\.onDisk.allocatedBytes) == [3_000_000])
        #expect(try store.rowCount("runs") == 1)
        #expect(try store.rowCount("run_locations") == Location.allCases.count)
        #expect(try store.rowCount("run_findings") == 1)
    }

    static func theSameRunIDFromTwoSourcesIsTwoRuns(_ store: some HistoryUnderTest) throws {
        let device = run("2026-11-21T020000Z", source: "farm-ipad", onDisk: 5_000_000)
        let simulator = run("2026-11-21T020000Z", source: "ci-simulator", onDisk: 7_000_000)
        let other = run("2026-11-21T020000Z", app: "com.example.mail")
        for run in [device, simulator, other] { try store.history.record(run) }
        #expect(try store.history.runs(of: device.series, limit: 5) == [device])
        #expect(try store.history.runs(of: simulator.series, limit: 5) == [simulator])
        #expect(
            try store.history.series() == [
                RunSeries(bundleIdentifier: chat, source: "ci-simulator"),
                RunSeries(bundleIdentifier: chat, source: "farm-ipad"),
                RunSeries(bundleIdentifier: "com.example.mail"),
            ])
        #expect(try store.history.bundleIdentifiers() == [chat, "com.example.mail"])
    }

    static func runsComeOldestFirstAndLimited(_ store: some HistoryUnderTest) throws {
        let ids = (1...5).map { "2026-11-2\($0)T020000Z" }
        for id in ids.shuffled() { try store.history.record(run(id)) }
        let series = RunSeries(bundleIdentifier: chat)
        #expect(try store.history.runs(of: series, limit: 3).map(\.runID) == Array(ids.suffix(3)))
        #expect(try store.history.runIDs(of: series) == ids)
        #expect(try store.history.runs(of: series, limit: 0).isEmpty)
        #expect(try store.history.runs(of: RunSeries(bundleIdentifier: "com.example.none"), limit: 3).isEmpty)
    }

    static func textIsBoundNotSpliced(_ store: some HistoryUnderTest) throws {
        // Quotes, SQL, a backslash, a right-to-left override and non-ASCII would break or inject if SQL were spliced.
        let hostile = "com.evil'); DROP TABLE runs; --\"x\\\u{202E}é"
        let run = run(
            "2026-11-21T020000Z", app: hostile, source: "a_b.c-d",
            findings: [FindingCount(rule: "rule'; DELETE FROM run_findings; --", severity: .error, count: 1)])
        try store.history.record(run)
        #expect(try store.history.runs(of: run.series, limit: 1) == [run])
        #expect(try store.rowCount("runs") == 1)
    }

    /// Issue 41, 13: SQLite kept a NUL that PostgreSQL refuses. Every engine takes the same runs: a version as shown
    /// text reads back as recorded, a NUL is refused before either store sees it, and a row edited past what a
    /// history accepts is named on reading, whichever engine holds it.
    static func everyEngineTakesTheSameRuns(_ store: some HistoryUnderTest) throws {
        let plain = run("2026-11-21T020000Z")
        let shown = RecordedValues.displayText("3.0\u{0}rc\u{1B}")
        let versioned = HistoryRun(
            bundleIdentifier: plain.bundleIdentifier, runID: plain.runID, generatedAt: plain.generatedAt,
            toolVersion: plain.toolVersion, appVersion: shown, onDisk: plain.onDisk,
            documentsAndData: plain.documentsAndData, purgeable: plain.purgeable, byLocation: plain.byLocation,
            backedUpBytes: plain.backedUpBytes, excludedBytes: plain.excludedBytes,
            unknownBackupBytes: plain.unknownBackupBytes, findingsBySeverity: plain.findingsBySeverity,
            findings: plain.findings, status: plain.status, source: plain.source)
        try store.history.recordChecked(versioned)
        #expect(try store.history.runs(of: plain.series, limit: 1) == [versioned])

        let nul = HistoryRun(
            bundleIdentifier: plain.bundleIdentifier, runID: "2026-11-22T020000Z", generatedAt: plain.generatedAt,
            toolVersion: plain.toolVersion, appVersion: "3.0\u{0}rc", onDisk: plain.onDisk,
            documentsAndData: plain.documentsAndData, purgeable: plain.purgeable, byLocation: plain.byLocation,
            backedUpBytes: 0, excludedBytes: 0, unknownBackupBytes: 0, findingsBySeverity: [:], findings: [],
            status: .clean)
        let refusal = try #require(throws: HistoryError.self) { try store.history.recordChecked(nul) }
        #expect(refusal.message.contains("its app version '3.0\\x00rc' holds the control character U+0000"))
        #expect(try store.rowCount("runs") == 1)

        try store.execute("UPDATE runs SET error_findings = 9223372036854775807, note_findings = 9223372036854775807")
        let unreadable = try #require(throws: HistoryError.self) {
            try store.history.runs(of: plain.series, limit: 1)
        }
        #expect(unreadable.message.contains("a finding count is not 0 to"), "\(unreadable.message)")
    }

    static func aNewStoreHasTheSchemaSQLiteMakes(_ store: some HistoryUnderTest) throws {
        let expected = try HistorySchema.columns(atVersion: HistorySchema.currentVersion)
        let found = try store.columns()
        for table in HistorySchema.tables { #expect(found[table] == expected[table], "table \(table)") }
        #expect(found["runs"]?.contains("source") == true)
    }

    /// One writer replaces a run over and over (its rows deleted and written again each time) while a second
    /// connection reads it: every read is a whole run, its location and finding rows matching its totals.
    static func aReaderNeverSeesHalfARun(_ store: some HistoryUnderTest) throws {
        let reader = try store.reopen()
        // Handed to the writer's thread, which alone uses it from here on.
        nonisolated(unsafe) let writer = store.history
        let finished = Flag()
        let failure = Flag()
        let thread = Thread {
            for round in 1...60 {
                let findings =
                    round % 2 == 0
                    ? [
                        FindingCount(rule: "a", severity: .warning, count: round),
                        FindingCount(rule: "b", severity: .note, count: 1),
                    ]
                    : [FindingCount(rule: "c", severity: .error, count: round)]
                do {
                    try writer.record(run("2026-11-21T020000Z", onDisk: Int64(round) * 16_000, findings: findings))
                } catch {
                    failure.set()
                }
            }
            finished.set()
        }
        thread.start()
        var reads = 0
        repeat {
            for run in try reader.runs(of: RunSeries(bundleIdentifier: chat), limit: 1) {
                reads += 1
                let located = run.byLocation.values.reduce(0) { $0 + $1.allocatedBytes }
                #expect(located == run.onDisk.allocatedBytes / 16 * Int64(Location.allCases.count))
                #expect(run.findings.reduce(0) { $0 + $1.count } == run.findingCount)
            }
        } while !finished.isSet
        #expect(!failure.isSet)
        #expect(reads > 0)
    }

    static func aStoreFromANewerStocktakeIsRefusedUntouched(_ store: some HistoryUnderTest) throws {
        try store.history.record(run("2026-11-21T020000Z"))
        try store.setVersion(HistorySchema.currentVersion + 1)
        #expect {
            _ = try store.reopen()
        } throws: { error in
            (error as? HistoryError)?.kind == .newerSchema
                && "\(error)".contains("schema version \(HistorySchema.currentVersion + 1)")
        }
        #expect(try store.rowCount("runs") == 1)
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
