import Foundation
import StocktakeAudit
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

/// The audit use case as the CLI and the nightly job call it: every report written, the input never
/// touched, a baseline written then applied, and a run that cannot write leaves nothing behind.
@Suite struct AuditTests {
    static let sample = Repository.path("Samples/ChatApp.xcappdata")

    static func request(output: String, formats: [ReportFormat] = [.json, .html]) -> AuditRequest {
        AuditRequest(
            inputPath: sample, outputDirectory: output, formats: formats,
            now: Date(timeIntervalSince1970: 1_700_000_000))
    }

    static func object(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func everyFormatIsWrittenAndTheInputIsUntouched() throws {
        let out = try TemporaryTree("audit")
        let before = TreeSnapshot(Self.sample)
        let formats: [ReportFormat] = [.json, .html, .sarif, .junit, .markdown, .ncdu]
        let result = try Audit.run(Self.request(output: out.path("run"), formats: formats))
        #expect(TreeSnapshot(Self.sample) == before)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path("run")).sorted()
        #expect(names == result.writtenFiles.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted())
        #expect(names.count == formats.count, "\(names)")
        // The file and the value the caller gets are the same judged report.
        let json = try Self.object(out.path("run/report.json"))
        #expect((json["findings"] as? [Any])?.count == result.report.findings.count)
        #expect(!result.report.findings.isEmpty, "the sample has documented findings")
        #expect((json["files"] as? [Any])?.count == result.report.inventory.entries.filter { !$0.isDirectory }.count)
    }

    /// A baseline's key sorts before the rows, so a run that applies one writes the whole report in order.
    @Test func aBaselineWrittenThenAppliedSuppressesEveryFinding() throws {
        let out = try TemporaryTree("audit")
        var first = Self.request(output: out.path("first"), formats: [.json])
        first.writeBaselinePath = out.path("baseline.json")
        let written = try Audit.run(first)
        var second = Self.request(output: out.path("second"), formats: [.json])
        second.baseline = try Baseline.load(path: out.path("baseline.json"))
        let applied = try Audit.run(second)
        #expect(applied.report.findings.isEmpty)
        #expect(applied.report.baseline?.suppressed == written.report.findings.count)
        let json = try Self.object(out.path("second/report.json"))
        let baseline = try #require(json["baseline"] as? [String: Any])
        #expect(baseline["suppressed"] as? Int == written.report.findings.count)
        #expect((json["findings"] as? [Any])?.isEmpty == true)
    }

    @Test func anOutputThatIsAFileFailsBeforeTheWalkAndWritesNothing() throws {
        let out = try TemporaryTree("audit")
        try out.write("taken", string: "a file, not a folder")
        let before = TreeSnapshot(out.root)
        #expect {
            _ = try Audit.run(Self.request(output: out.path("taken")))
        } throws: { error in
            guard let error = error as? AuditError, case .output = error else { return false }
            return true
        }
        #expect(TreeSnapshot(out.root) == before)
    }

    @Test func aMissingInputIsAnInputErrorNamingThePath() throws {
        let out = try TemporaryTree("audit")
        let missing = out.path("no such.xcappdata")
        #expect {
            _ = try Audit.run(AuditRequest(inputPath: missing, outputDirectory: out.path("run")))
        } throws: { error in
            guard let error = error as? AuditError, case .input = error else { return false }
            return error.description.contains("no such.xcappdata")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path("run")))
    }
}

/// What the pages say of files the content checks did not read: their sizes are in the totals.
@Suite struct ContentNotReadWordingTests {
    @Test func aFileNotReadByTheContentChecksIsNotSaidToHideItsSize() throws {
        let tree = try TemporaryTree("wording")
        for folder in ["Documents", "Library/Preferences", "tmp"] { try tree.mkdir(folder) }
        // No Realm header: an encrypted Realm file, which the content checks cannot read.
        try tree.write("Documents/vault.realm", bytes: [UInt8](repeating: 7, count: 4096))
        let out = try TemporaryTree("wording-out")
        let result = try Audit.run(
            AuditRequest(
                inputPath: tree.root, outputDirectory: out.path("run"), formats: [.html],
                now: Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(result.report.issues.map(\.reason) == [.contentNotRead])
        let html = try String(contentsOfFile: out.path("run/report.html"), encoding: .utf8)
        #expect(html.contains("could not be read completely; every size is in the totals."))
        #expect(!html.contains("may be missing from the totals"))
    }
}
