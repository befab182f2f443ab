import Foundation
import StocktakeModel
import StocktakeReport
import TestSupport
import Testing

@testable import StocktakeAudit

/// report.json's rows are written while the content pass runs; the coverage, a member the writer fills in once the
/// pass is done, must leave the file byte-identical to one written after the pass, whichever finished first.
@Suite struct DeferredCoverageTests {
    static func audit(_ input: String, output: String) throws -> AuditResult {
        try Audit.run(
            AuditRequest(
                inputPath: input, outputDirectory: output, formats: [.json, .html],
                now: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    /// `report` as report.json in one go, the bytes the audit should have streamed.
    static func json(_ report: Report) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try JSONReportWriter().write(report) { bytes += $0 }
        return bytes
    }

    @Test("an audit's report.json is the judged report written in one go", arguments: [false, true])
    func theStreamedReportIsTheWholeReport(large: Bool) throws {
        let tree = try TemporaryTree("splice")
        let input = large ? tree.root : AuditTests.sample
        if large {
            // Enough rows to outlast a slow pass, secrets in some files, and a device-backup-free layout.
            for folder in 0..<40 {
                for file in 0..<60 {
                    try tree.write(
                        "Library/Caches/\(folder)/\(file).log",
                        string: file % 7 == 0 ? "Authorization: Bearer \(UUID().uuidString)\n" : "line \(file)\n")
                }
            }
            try tree.write("Library/Preferences/app.plist", string: "<plist><dict></dict></plist>")
        }
        let out = try TemporaryTree("splice-out")
        let result = try Self.audit(input, output: out.path("run"))
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out.path("run/report.json"))))
        #expect(result.report.contentCoverage != nil)
        #expect(written == (try Self.json(result.report)))
    }

    @Test("rows held while the pass runs, or not held when it is done, give the same bytes", arguments: [false, true])
    func theCoverageWrittenLaterGivesTheBytesOfTheWholeReport(passStillRunning: Bool) throws {
        let out = try TemporaryTree("splice-out")
        let report = try Self.audit(AuditTests.sample, output: out.path("run")).report
        let coverage = try #require(report.contentCoverage)
        let draft = report.draft
        let rows = ReportDraft(
            tool: draft.tool, generatedAt: draft.generatedAt, container: draft.container, inventory: draft.inventory,
            appBundle: draft.appBundle, appGroups: draft.appGroups, groups: draft.groups, budgets: draft.budgets,
            companionIssues: draft.companionIssues, deviceBackup: draft.deviceBackup)
        let release = DispatchSemaphore(value: 0)
        let pass = BackgroundTask { () -> ContentScope.Result in
            if passStillRunning { release.wait() }
            return ContentScope.Result(coverage: coverage)
        }
        if !passStillRunning { _ = pass.value }
        nonisolated(unsafe) var bytes: [UInt8] = []
        try JSONReportWriter().write(
            rows, coverage: (isReady: { pass.isDone }, value: { pass.value.coverage }),
            judgedBy: {
                if passStillRunning {
                    // Everything before the coverage went out; the rows wait for it.
                    let head = String(decoding: bytes, as: UTF8.self)
                    #expect(head.hasSuffix("\"contentCoverage\": ") && !head.contains("\"files\""))
                    release.signal()
                }
                return report.judgement
            }, to: { bytes += $0 })
        #expect(bytes == (try Self.json(report)))
    }
}
