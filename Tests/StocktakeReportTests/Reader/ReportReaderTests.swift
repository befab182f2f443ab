import Foundation
import StocktakeAudit
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

/// A report read back from `report.json` says what the audit that wrote it knew: every row with its exact
/// path and figures, the totals, findings, groups, budgets and where it came from.
@Suite struct ReportReaderTests {
    static let repository = Repository.root

    /// Samples/stocktake.yml (groups, scaled thresholds) with budgets, some of them exceeded.
    static func sampleConfiguration() throws -> PolicyConfiguration {
        let text = try String(contentsOfFile: repository + "/Samples/stocktake.yml", encoding: .utf8)
        let budgets =
            "\nbudgets:\n  total: 1MB\n  files: 100000\n  locations:\n    tmp: 2 files\n  groups:\n    chats: 100KB\n"
        return try PolicyConfiguration.parse(text + budgets, file: "stocktake.yml")
    }

    /// Audits the sample container into a temporary folder: the in-memory report and the folder holding report.json.
    static func auditSample() throws -> (report: Report, folder: String, tree: TemporaryTree) {
        let tree = try TemporaryTree("reader")
        let configuration = try sampleConfiguration()
        let request = AuditRequest(
            inputPath: repository + "/Samples/ChatApp.xcappdata", outputDirectory: tree.path("out"), formats: [.json],
            configuration: configuration, policy: try Policy(configuration: configuration),
            now: Date(timeIntervalSince1970: 1_795_226_400))
        let result = try Audit.run(request)
        return (result.report, result.outputDirectory, tree)
    }

    /// Non-directory entries (files[]) or directories (directories[]), in the writer's order, with their paths.
    static func rows(of inventory: Inventory, directories: Bool) -> [(index: Int32, path: [UInt8])] {
        var rows: [(Int32, [UInt8])] = []
        inventory.forEachInPathOrder { index, path in
            if inventory.entries[Int(index)].isDirectory == directories { rows.append((index, path)) }
        }
        return rows
    }

    // MARK: - The sample's report

    @Test func totalsEqualTheAuditsTotals() throws {
        let (report, folder, tree) = try Self.auditSample()
        defer { withExtendedLifetime(tree) {} }
        let snapshot = try ReportReader.read(path: folder)
        let totals = report.inventory.totals
        #expect(snapshot.totals.onDisk == totals.onDisk)
        #expect(snapshot.totals.documentsAndData == totals.documentsAndData)
        #expect(snapshot.totals.purgeable == totals.purgeable)
        #expect(snapshot.totals.byLocation == totals.byLocation)
        #expect(snapshot.totals.backup == totals.backup)
        #expect(snapshot.totals.byLocation.count == Location.allCases.count)
        #expect(snapshot.totals.onDisk.files > 100, "the sample holds a few hundred entries")
    }

    @Test func everyFileRowHasItsPathAndFigures() throws {
        let (report, folder, tree) = try Self.auditSample()
        defer { withExtendedLifetime(tree) {} }
        let snapshot = try ReportReader.read(path: folder)
        let inventory = report.inventory
        let expected = Self.rows(of: inventory, directories: false)
        try #require(snapshot.files.count == expected.count)
        for (row, (index, path)) in expected.enumerated() {
            let entry = inventory.entries[Int(index)]
            #expect(Array(snapshot.files.pathBytes(at: row)) == path)
            #expect(snapshot.files.apparentBytes[row] == entry.apparentBytes, "\(snapshot.files.path(at: row))")
            #expect(snapshot.files.allocatedBytes[row] == entry.allocatedBytes, "\(snapshot.files.path(at: row))")
            #expect(snapshot.files.modified[row] == entry.modified)
            #expect(snapshot.files.kinds[row] == entry.kind, "\(snapshot.files.path(at: row))")
            #expect(snapshot.files.locations[row] == entry.location)
            #expect(snapshot.files.fileCounts[row] == 1)
        }
        // A few rows a user would look up.
        let paths = (0..<snapshot.files.count).map { snapshot.files.path(at: $0) }
        let database = try #require(paths.firstIndex { $0.hasSuffix(".sqlite") })
        #expect(snapshot.files.kinds[database] == .sqlite)
        #expect(snapshot.files.size(at: database).allocatedBytes > 0)
        #expect(paths.contains { $0.hasPrefix("Library/Caches/") })
        #expect(paths.contains { $0.hasPrefix("Documents/") })
    }

    @Test func everyDirectoryRowHasItsSubtreeTotals() throws {
        let (report, folder, tree) = try Self.auditSample()
        defer { withExtendedLifetime(tree) {} }
        let snapshot = try ReportReader.read(path: folder)
        let inventory = report.inventory
        let expected = Self.rows(of: inventory, directories: true)
        try #require(snapshot.directories.count == expected.count)
        for (row, (index, path)) in expected.enumerated() {
            let total = try #require(inventory.directoryTotals[index])
            #expect(Array(snapshot.directories.pathBytes(at: row)) == path)
            #expect(snapshot.directories.size(at: row) == total, "\(snapshot.directories.path(at: row))")
            #expect(snapshot.directories.locations[row] == inventory.entries[Int(index)].location)
            #expect(snapshot.directories.kinds[row] == .unknown)
        }
        // The root comes first and holds everything.
        #expect(snapshot.directories.path(at: 0) == "")
        #expect(snapshot.directories.size(at: 0).allocatedBytes == report.inventory.totals.onDisk.allocatedBytes)
    }

    @Test func findingsGroupsAndBudgetsComeBack() throws {
        let (report, folder, tree) = try Self.auditSample()
        defer { withExtendedLifetime(tree) {} }
        let snapshot = try ReportReader.read(path: folder)

        #expect(!report.findings.isEmpty, "the sample holds deliberate misplacements")
        #expect(snapshot.findings.count == report.findings.count)
        #expect(snapshot.findings.map(\.fingerprint) == report.findings.map(\.fingerprint))
        for (read, written) in zip(snapshot.findings, report.findings) {
            #expect(read.rule == written.rule && read.severity == written.severity && read.path == written.path)
            #expect(read.message == written.message && read.bytes == written.bytes)
        }

        let chats = try #require(report.groups.first { $0.definition.name == "chats" })
        #expect(!chats.members.isEmpty)
        #expect(Set(snapshot.groups.keys) == ["chats"])
        let members = try #require(snapshot.groups["chats"])
        #expect(members.map(\.id) == chats.members.map(\.id))
        #expect(members.map(\.path) == chats.members.map { PathText.display($0.path) })
        #expect(members.map(\.size) == chats.members.map(\.total))

        #expect(!report.budgets.isEmpty)
        #expect(snapshot.budgets.map(\.scope) == report.budgets.map(\.scope))
        #expect(snapshot.budgets.map(\.limit) == report.budgets.map(\.limit))
        #expect(snapshot.budgets.map(\.actual) == report.budgets.map(\.actual))
        #expect(snapshot.budgets.map(\.exceeded) == report.budgets.map(\.exceeded))
        #expect(snapshot.budgets.map(\.unit) == report.budgets.map { $0.isCount ? "files" : "allocatedBytes" })
        #expect(snapshot.budgets.contains { $0.exceeded }, "a 1 MB total budget is exceeded by the sample")
    }

    @Test func provenanceSaysWhereTheReportCameFrom() throws {
        let (report, folder, tree) = try Self.auditSample()
        defer { withExtendedLifetime(tree) {} }
        let snapshot = try ReportReader.read(path: folder)
        let provenance = snapshot.provenance
        #expect(provenance.source == folder)
        #expect(provenance.schemaVersion == 1)
        #expect(provenance.toolName == "stocktake")
        #expect(provenance.toolVersion == report.tool.version)
        #expect(provenance.generatedAt == "2026-11-21T02:00:00Z")
        #expect(provenance.bundleIdentifier == "com.example.chat")
        #expect(provenance.appVersion == "14.2.0")
        #expect(provenance.containerPath == Self.repository + "/Samples/ChatApp.xcappdata")
        #expect(provenance.layout == "xcappdata")
    }

    @Test func aFolderAndItsReportJSONReadTheSame() throws {
        let (_, folder, tree) = try Self.auditSample()
        defer { withExtendedLifetime(tree) {} }
        let fromFolder = try ReportReader.read(path: folder)
        let fromFile = try ReportReader.read(path: folder + "/report.json")
        let fromSlash = try ReportReader.read(path: folder + "/")
        #expect(fromFile.provenance.source == folder + "/report.json")
        #expect(fromSlash.provenance.source == folder + "/")
        for snapshot in [fromFile, fromSlash] {
            #expect(snapshot.totals == fromFolder.totals)
            #expect(snapshot.files.count == fromFolder.files.count)
            #expect(snapshot.directories.count == fromFolder.directories.count)
            #expect(snapshot.findings == fromFolder.findings)
            #expect(snapshot.provenance.appVersion == fromFolder.provenance.appVersion)
        }
    }

    // MARK: - Names

    /// The synthetic container holds a name that is not UTF-8 and names with quotes, newlines and markup.
    @Test func exactNamesRoundTripThroughRawPathAndEscapes() throws {
        for report in [SyntheticReport.make(), JSONReportWriterTests.controlCharacterReport()] {
            let tree = try TemporaryTree("names")
            try tree.write("report.json", bytes: try FindingsReport.rendered(.json, report))
            let snapshot = try ReportReader.read(path: tree.path("report.json"))
            for (table, directories) in [(snapshot.files, false), (snapshot.directories, true)] {
                let expected = Self.rows(of: report.inventory, directories: directories)
                try #require(table.count == expected.count)
                for (row, (_, path)) in expected.enumerated() {
                    #expect(
                        Array(table.pathBytes(at: row)) == path, "row \(row): \(table.path(at: row).debugDescription)")
                }
            }
        }
        let nonUTF8 = Array("Documents/".utf8) + SyntheticContainer.nonUTF8Name
        let tree = try TemporaryTree("names")
        try tree.write("report.json", bytes: try FindingsReport.rendered(.json, SyntheticReport.make()))
        let snapshot = try ReportReader.read(path: tree.path("report.json"))
        let row = try #require((0..<snapshot.files.count).first { Array(snapshot.files.pathBytes(at: $0)) == nonUTF8 })
        #expect(snapshot.files.path(at: row).contains("\u{FFFD}"), "shown with U+FFFD, kept exact in pathBytes")
        #expect(
            snapshot.provenance.appVersion == "2.4.1 (381)", "XCExecutableVersion of the synthetic AppDataInfo.plist")
    }
}
