import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeSQLite
import TestSupport
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// Issue 41: a value one machine records is read by every machine after it. What a history takes is checked once
/// (`RecordedValues`), every row read back is checked again, and sums of recorded values stop at the limits.
@Suite struct RecordedValuesTests {
    /// A run whose figures are `bytes` in each of two locations and `count` findings at each of two severities.
    static func run(bytes: Int64, count: Int, appVersion: String? = "1.0") -> HistoryRun {
        let huge = SizeTotal(files: 1, apparentBytes: bytes, allocatedBytes: bytes)
        return HistoryRun(
            bundleIdentifier: HistoryFixtures.chat, runID: "2026-11-21T020000Z", generatedAt: "2026-11-21T02:00:00Z",
            toolVersion: "0.1.0", appVersion: appVersion, onDisk: huge, documentsAndData: huge, purgeable: .zero,
            byLocation: [.documents: huge, .applicationSupport: huge], backedUpBytes: bytes, excludedBytes: 0,
            unknownBackupBytes: 0, findingsBySeverity: [.error: count, .warning: count],
            findings: [
                FindingCount(rule: "a", severity: .error, count: count),
                FindingCount(rule: "a", severity: .error, count: count),
            ], status: .clean)
    }

    /// Issue 41, 1: two 5e18-byte locations crashed every later index (the location treemap's sum of tiles).
    @Test func sizesPastInt64MakeAnIndexNotACrash() throws {
        let fixture = try StoreFixture()
        try fixture.store.recordChecked(Self.run(bytes: 5_000_000_000_000_000_000, count: 1))
        try IndexBuilder(outputPath: fixture.tree.root, history: fixture.store, showsMachines: false, thisMachine: nil)
            .write(generatedAt: "2026-11-21T03:00:00Z")
        let page = try String(contentsOfFile: fixture.tree.path("index.html"), encoding: .utf8)
        #expect(page.contains("App data by location"))
    }

    /// Issue 41, 4: counts that add past Int64 trapped the index; sums of counts now stop at the limit.
    @Test func findingSumsSaturate() {
        let run = Self.run(bytes: 1, count: Int.max)
        #expect(run.findingCount == Int.max)
        #expect(run.findingsByRule["a"] == Int.max)
        #expect(run.problem?.contains("a finding count is not 0 to") == true)
    }

    /// Issue 41, 4 and the "Done when": a row edited (or written by another machine) is checked again on reading,
    /// and named; the index says so instead of trapping.
    @Test(arguments: [
        ("error_findings = 9223372036854775807, warning_findings = 9223372036854775807", "a finding count"),
        ("on_disk_allocated_bytes = -1", "on disk total has a negative size"),
        ("app_version = 'v' || char(0) || 'x'", "its app version 'v\\x00x' holds the control character U+0000"),
        ("generated_at = '2026-11-21T02:00:00.12345678901234567890Z'", "is not a UTC time"),
        ("duration_seconds = -5", "its duration -5.0 is not 0 to"),
        ("report_location = 'javascript:alert(1)'", "is not an http:// or https:// address"),
        ("run_id = '../../etc'", "a run id is printable ASCII without spaces or slashes"),
        ("tool_version = '" + String(repeating: "x", count: 300) + "'", "its tool version is 300 bytes long"),
    ])
    func everyValueReadBackIsChecked(_ change: String, _ message: String) throws {
        let fixture = try StoreFixture()
        try fixture.store.recordChecked(Self.run(bytes: 1_000, count: 1))
        try SQLiteConnection(path: fixture.store.path, create: false).execute("UPDATE runs SET \(change)")
        let error = try #require(throws: HistoryError.self) {
            try fixture.store.runs(of: RunSeries(bundleIdentifier: HistoryFixtures.chat), limit: 30)
        }
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.message.contains("(was it edited by hand?)"))
        let index = IndexBuilder(
            outputPath: fixture.tree.root, history: fixture.store, showsMachines: false, thisMachine: nil)
        #expect(throws: HistoryError.self) { try index.write(generatedAt: "2026-11-21T03:00:00Z") }
    }

    /// Issue 41, 2: a 20-digit fraction trapped the metrics' date parser.
    @Test func aLongFractionIsRefusedNotATrap() {
        let long = "2026-11-21T02:00:00." + String(repeating: "9", count: 20) + "Z"
        #expect(ISO8601Seconds.parse(long) == nil)
        #expect(RecordedValues.problem(withGeneratedAt: long) != nil)
        #expect(ISO8601Seconds.parse("2026-11-21T02:00:00.123456789Z") == 1_795_226_400.123456789)
        #expect(RecordedValues.problem(withGeneratedAt: "0001-01-01T00:00:00Z") != nil, "years 1970 to 9999")
    }

    /// Issue 41, 13: a NUL in an app's version (a binary plist may hold one) is what PostgreSQL refuses and SQLite
    /// kept. The shared conversion keeps the version as shown text, so both take the run; a run built with a NUL
    /// anyway is refused by the one check every writer records through, naming the version.
    @Test func aNulInTheAppVersionIsKeptAsShownText() throws {
        let fixture = try StoreFixture()
        let version = "2.0\u{0}beta\u{1B}[31m"
        let run = HistoryRun(
            bundleIdentifier: HistoryFixtures.chat, runID: "2026-11-21T020000Z",
            snapshot: HistoryFixtures.snapshot(onDisk: 1_000_000, appVersion: version), status: .clean)
        #expect(run.appVersion == "2.0\u{FFFD}beta\u{FFFD}[31m")
        try fixture.store.recordChecked(run)
        #expect(try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 1) == [run])

        let error = try #require(throws: HistoryError.self) {
            try fixture.store.recordChecked(Self.run(bytes: 1, count: 1, appVersion: version))
        }
        #expect(error.message.contains("its app version '2.0\\x00beta\\x1b[31m' holds the control character U+0000"))
        #expect(try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 5).count == 1)
    }

    /// "At most a bounded number of rules", and rule ids that a page or a label can carry.
    @Test func rulesAreBoundedInNumberAndShape() {
        var generator = SeededGenerator(seed: 41)
        let many = (0...RecordedValues.maxRules).map { index in
            FindingCount(rule: "rule-\(index)-\(generator.next() % 1000)", severity: .note, count: 1)
        }
        let base = Self.run(bytes: 1, count: 1)
        func with(_ findings: [FindingCount]) -> HistoryRun {
            HistoryRun(
                bundleIdentifier: base.bundleIdentifier, runID: base.runID, generatedAt: base.generatedAt,
                toolVersion: base.toolVersion, appVersion: nil, onDisk: base.onDisk,
                documentsAndData: base.documentsAndData, purgeable: base.purgeable, byLocation: base.byLocation,
                backedUpBytes: 0, excludedBytes: 0, unknownBackupBytes: 0, findingsBySeverity: [:], findings: findings,
                status: .clean)
        }
        #expect(with(many).problem == "it names \(many.count) rules (at most \(RecordedValues.maxRules))")
        #expect(with(Array(many.prefix(10))).problem == nil)
        let nul = with([FindingCount(rule: "a\u{0}b", severity: .note, count: 1)]).problem
        #expect(nul?.contains("a rule id 'a\\x00b' holds the control character U+0000") == true)
    }

    /// Issue 41, 5 and 15: `--limit` of Int.max trapped the index; 700 runs drew bars of width "0.-2".
    @Test func anyTrendLengthDrawsBarsOfPositiveWidth() throws {
        let fixture = try StoreFixture()
        var runs: [HistoryRun] = []
        for day in 0..<700 {
            let run = HistoryFixtures.run(
                String(format: "2026-%02d-%02dT%02d0000Z", 1 + day / 62, 1 + day % 31, day % 24 / 2),
                onDisk: Int64(1_000 + day))
            runs.append(run)
        }
        let svg = "\(TrendChart.svg(runs, label: "trend"))"
        let widths = svg.components(separatedBy: "width=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(widths.count == TrendChart.maximumBars)
        #expect(widths.allSatisfy { Double($0).map { $0 > 0 } ?? false }, "\(Set(widths))")
        #expect(HTMLFormatting.decimal(tenths: -2) == "-0.2")
        #expect("\(TrendChart.caption(runs))".contains("The chart shows the last 200 of 700 runs."))

        try fixture.store.recordChecked(HistoryFixtures.run("2026-11-21T020000Z"))
        try IndexBuilder(
            outputPath: fixture.tree.root, history: fixture.store, trendLength: Int.max, showsMachines: false,
            thisMachine: nil
        ).write(generatedAt: "2026-11-21T03:00:00Z")
        #expect(FileManager.default.fileExists(atPath: fixture.tree.path("index.html")))
    }

    /// Issue 41, 16: an address with a query put `report.html` inside the query; `record` now refuses what the
    /// index would not link, by the same rule.
    @Test(arguments: [
        "https://ci.example.com/jobs/1/artifacts?file=x", "https://ci.example.com/a#frag", "https:///nohost",
        "ftp://ci.example.com/a", "https://ci.example.com/a b",
    ])
    func anAddressTheIndexCannotLinkIsRefused(_ address: String) {
        #expect(ReportAddress.problem(address) != nil)
        #expect(ReportAddress.normalized(address) == nil)
    }

    @Test func aPlainAddressIsLinked() {
        #expect(ReportAddress.problem("https://ci.example.com/jobs/1/artifacts/") == nil)
        #expect(
            ReportAddress.normalized("https://ci.example.com/jobs/1/artifacts/")
                == "https://ci.example.com/jobs/1/artifacts")
    }

    /// Issue 41, 18: a device or a FIFO named as the history left `NAME-journal` beside it (or blocked).
    @Test func aHistoryThatIsNotARegularFileIsRefused() throws {
        let tree = try TemporaryTree("fifo")
        let fifo = tree.path("history.sqlite")
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/null", tree.root] {
            let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path) }
            #expect(error.kind == .notAHistoryStore)
            #expect(error.message.contains("not an SQLite file"))
            #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        }
    }
}
