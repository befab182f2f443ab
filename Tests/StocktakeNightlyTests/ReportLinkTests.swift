import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// Links from an index to runs that other machines recorded.
@Suite struct ReportLinkTests {
    static func run(_ location: String?, app: String = "com.example.chat", runID: String = "2026-11-21T020000Z")
        -> HistoryRun
    {
        HistoryRun(
            bundleIdentifier: app, runID: runID, generatedAt: "", toolVersion: "0.1.0", appVersion: nil,
            onDisk: .zero, documentsAndData: .zero, purgeable: .zero, byLocation: [:], backedUpBytes: 0,
            excludedBytes: 0, unknownBackupBytes: 0, findingsBySeverity: [:], findings: [], status: .clean,
            reportLocation: location)
    }

    @Test func anAddressIsLinkedAsGivenWhenItIsSafe() {
        let link = ReportLink.to(
            "report.html", of: Self.run("https://ci.example.com/jobs/12/artifacts/"), fromPageIn: "/x",
            thisMachine: "here")
        #expect(link == .address("https://ci.example.com/jobs/12/artifacts/report.html"))
        #expect(
            ReportLink.to("diff.html", of: Self.run("https://ci.example.com/a"), fromPageIn: "/x", thisMachine: "here")
                == nil)
        for unsafe in [
            "javascript:alert(1)", "https://x/\"onmouseover=\"alert(1)", "https://x/<script>", "https://x/a b",
            "https://x/\u{202E}", "file:///etc/passwd", "data:text/html,x",
        ] {
            #expect(ReportAddress.normalized(unsafe) == nil, "\(unsafe)")
        }
    }

    @Test func aFolderOnThisMachineIsLinkedRelativeToThePage() throws {
        let tree = try TemporaryTree("links")
        try tree.write("farm-a/com.example.chat/2026-11-21T020000Z/report.html", string: "<p>")
        try tree.mkdir("www/stocktake")
        let run = Self.run(tree.path("farm-a/com.example.chat/2026-11-21T020000Z"))
        #expect(
            ReportLink.to("report.html", of: run, fromPageIn: tree.path("www/stocktake"), thisMachine: "here")
                == .relative("../../farm-a/com.example.chat/2026-11-21T020000Z/report.html"))
        // The nightly job's own layout, for runs recorded before the folder was kept.
        #expect(
            ReportLink.to("report.html", of: Self.run(nil), fromPageIn: tree.path("farm-a"), thisMachine: "here")
                == .relative("com.example.chat/2026-11-21T020000Z/report.html"))
        // Another machine's folder, not here: no link.
        #expect(
            ReportLink.to(
                "report.html", of: Self.run("/srv/elsewhere/run"), fromPageIn: tree.path("www"), thisMachine: "here")
                == nil)
        #expect(ReportLink.to("diff.html", of: run, fromPageIn: tree.path("www/stocktake"), thisMachine: "here") == nil)
        // The same path and run id recorded by another machine (farm Macs laid out alike): not this folder.
        let elsewhere = HistoryRun(
            bundleIdentifier: run.bundleIdentifier, runID: run.runID, generatedAt: "", toolVersion: "0.1.0",
            appVersion: nil, onDisk: .zero, documentsAndData: .zero, purgeable: .zero, byLocation: [:],
            backedUpBytes: 0, excludedBytes: 0, unknownBackupBytes: 0, findingsBySeverity: [:], findings: [],
            status: .clean, recordedBy: "farm-mac-2", reportLocation: run.reportLocation)
        #expect(
            ReportLink.to("report.html", of: elsewhere, fromPageIn: tree.path("www/stocktake"), thisMachine: "here")
                == nil)
        #expect(
            ReportLink.to(
                "report.html", of: elsewhere, fromPageIn: tree.path("www/stocktake"), thisMachine: "farm-mac-2")
                != nil)
    }
}
