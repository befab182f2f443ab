import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// The index page as a careful reader checks it: self-contained, nothing from an inbox can become markup
/// or a link elsewhere, and the numbers say how each app moved.
@Suite struct NightlyIndexPageTests {
    static let hostileBundle = "com.evil\"><script>alert(1)</script><img src=x onerror=alert(2)>\u{202E}gpj.exe"
    static let hostileInput = "<svg onload=alert(3)>.xcappdata"

    static func page() -> String {
        let chatRuns = [
            HistoryFixtures.run("2026-11-19T020000Z", onDisk: 1_000_000),
            HistoryFixtures.run("2026-11-20T020000Z", onDisk: 1_200_000),
            HistoryFixtures.run(
                "2026-11-21T020000Z", onDisk: 1_500_000, status: .policyFailure,
                findings: [
                    ("tmp-leftovers", .error), ("documents-hidden-data", .warning), ("documents-hidden-data", .warning),
                ]),
        ]
        let evilRuns = [HistoryFixtures.run("2026-11-21T020000Z", bundleIdentifier: hostileBundle, onDisk: 4096)]
        let index = NightlyIndex(
            generatedAt: "2026-11-21T02:30:00Z",
            apps: [
                NightlyIndex.App(
                    bundleIdentifier: HistoryFixtures.chat, runs: chatRuns,
                    latestReport: .relative("com.example.chat/2026-11-21T020000Z/report.html"),
                    latestDiff: .relative("com.example.chat/2026-11-21T020000Z/diff.html")
                ),
                NightlyIndex.App(
                    bundleIdentifier: hostileBundle, runs: evilRuns,
                    latestReport: .relative("javascript:alert(4)//\(hostileBundle)/2026-11-21T020000Z/report.html"),
                    latestDiff: nil),
            ],
            failures: [
                NightlyOutcome.Failure(
                    input: hostileInput, message: "not a container: found <b>nothing</b>\nsecond line")
            ])
        return String(decoding: NightlyIndexPage.render(index), as: UTF8.self)
    }

    let html = NightlyIndexPageTests.page()

    @Test("the page opens with its verdict: the apps that failed their gate and the inputs not audited")
    func verdictFirst() throws {
        let verdict = try #require(html.range(of: "<section id=\"verdict\""))
        #expect(verdict.lowerBound < (html.range(of: "<section id=\"apps\"")?.lowerBound ?? html.startIndex))
        let text = String(html[verdict.lowerBound...].prefix(1200))
        #expect(text.contains("<strong class=\"v-word\">Failed</strong> 1 app of 2 failed the policy gate"))
        #expect(text.contains("1 input could not be audited"))
        #expect(text.contains("1 error · 2 warnings"))
    }

    @Test("the trend has a scale and its latest bar is darker than the others, failed or not")
    func trendAxisAndLatestBar() throws {
        let trend = try #require(html.components(separatedBy: "<div class=\"trend-figure\">").dropFirst().first)
        #expect(trend.contains("<span>1.5 MB</span><span class=\"trend-y-name\">on disk</span><span>0</span>"))
        #expect(trend.contains("oldest run") && trend.contains("latest run"))
        let fills = trend.components(separatedBy: "fill=\"").dropFirst().map { String($0.prefix(7)) }
        #expect(fills == [IndexStyle.barColour, IndexStyle.barColour, IndexStyle.latestFailureColour])
        #expect(IndexStyle.latestFailureColour != IndexStyle.failureColour)
    }

    @Test("the small map has a legend: each location's colour, name and size")
    func mapLegend() {
        #expect(html.contains("<p class=\"tm-legend\"><span><span class=\"tm-key\" style=\"background:"))
    }

    /// The oldest row of the run-by-run table has its change when an earlier run exists outside the window.
    @Test func theOldestRowComparesWithTheRunBeforeTheWindow() {
        let runs = [
            HistoryFixtures.run("2026-11-20T020000Z", onDisk: 1_200_000),
            HistoryFixtures.run("2026-11-21T020000Z", onDisk: 1_500_000),
        ]
        let app = { (before: HistoryRun?) in
            NightlyIndex.App(
                bundleIdentifier: HistoryFixtures.chat, runs: runs, latestReport: .relative("r.html"), latestDiff: nil,
                runBefore: before)
        }
        let table = { (app: NightlyIndex.App) -> String in
            let page = String(
                decoding: NightlyIndexPage.render(
                    NightlyIndex(generatedAt: "2026-11-21T02:30:00Z", apps: [app], failures: [])), as: UTF8.self)
            return page.components(separatedBy: "<summary>Run by run</summary>").dropFirst().first ?? ""
        }
        let withEarlier = table(app(HistoryFixtures.run("2026-11-19T020000Z", onDisk: 1_000_000)))
        let firstRow =
            withEarlier.components(separatedBy: ">2026-11-20T020000Z</td>").dropFirst().first?
            .components(separatedBy: "</tr>").first ?? ""
        #expect(firstRow.contains("+200 KB"), "\(firstRow)")
        #expect(table(app(nil)).contains("<span class=\"muted\">—</span></td>"), "no earlier run: a dash")
    }

    /// A shared history's page: the source beside the app, the recording machine, an address link kept as text, and
    /// a run no link reaches named with the machine that holds it.
    @Test func aSharedHistoryNamesSourcesMachinesAndUnreachableReports() {
        let elsewhere = HistoryRun(
            bundleIdentifier: HistoryFixtures.chat, runID: "2026-11-21T020000Z", generatedAt: "", toolVersion: "0.1.0",
            appVersion: nil, onDisk: .zero, documentsAndData: .zero, purgeable: .zero, byLocation: [:],
            backedUpBytes: 0, excludedBytes: 0, unknownBackupBytes: 0, findingsBySeverity: [:], findings: [],
            status: .clean, source: "farm-ipad", recordedBy: "mac<3>", reportLocation: "/srv/reports/x")
        let page = String(
            decoding: NightlyIndexPage.render(
                NightlyIndex(
                    generatedAt: "2026-11-21T02:30:00Z",
                    apps: [
                        NightlyIndex.App(
                            bundleIdentifier: HistoryFixtures.chat, source: "farm-ipad", showsMachine: true,
                            runs: [elsewhere], latestReport: nil, latestDiff: nil),
                        NightlyIndex.App(
                            bundleIdentifier: HistoryFixtures.chat, source: "ci-simulator", showsMachine: true,
                            runs: [HistoryFixtures.run("2026-11-21T020000Z")],
                            latestReport: .address("https://ci.example.com/jobs/1/artifacts/report.html?a=1&b=2"),
                            latestDiff: nil),
                    ], failures: [])), as: UTF8.self)
        #expect(page.contains("com.example.chat <span class=\"source\">· farm-ipad</span>"))
        #expect(page.contains("recorded by mac&lt;3&gt;"))
        #expect(page.contains("Latest report: not reachable from this page (on mac&lt;3&gt;, /srv/reports/x)"))
        #expect(page.contains("href=\"https://ci.example.com/jobs/1/artifacts/report.html?a=1&amp;b=2\""))
    }

    @Test func pageIsWellFormedAndLoadsNothing() throws {
        let structure = HTMLStructure(html)
        #expect(structure.problems == [])
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        let meta = try #require(
            structure.elements(named: "meta").first { $0.attribute("http-equiv") == "Content-Security-Policy" })
        let policy = try #require(meta.attribute("content"))
        #expect(policy.contains("default-src 'none'"))
        #expect(!policy.contains("script-src"), "no script is allowed, so none falls back to default-src 'none'")
        #expect(structure.elements(named: "script").isEmpty)
        #expect(!html.contains("://"), "no URL of any kind")
        // `url(#…)` names a pattern on the page itself; any other url() would load.
        #expect(
            !html.lowercased().replacingOccurrences(of: "url(#", with: "").contains("url(")
                && !html.lowercased().contains("@import"))
        for element in structure.elements {
            for (name, value) in element.attributes {
                #expect(!name.lowercased().hasPrefix("on"), "event handler \(name) on <\(element.name)>")
                if ["src", "href", "action", "xlink:href"].contains(name.lowercased()) {
                    #expect(!value.contains(":"), "<\(element.name) \(name)=\"\(value)\"> has a scheme")
                    #expect(!value.hasPrefix("/"), "<\(element.name) \(name)=\"\(value)\"> is not relative")
                }
            }
        }
    }

    @Test func hostileNamesAreInertText() {
        let structure = HTMLStructure(html)
        #expect(structure.elements(named: "img").isEmpty && structure.elements(named: "b").isEmpty)
        #expect(
            structure.elements(named: "svg").filter {
                $0.attributes.contains { $0.name == "class" && $0.value == "trend" }
            }.count == 2, "one trend chart per app")
        #expect(
            structure.elements(named: "svg").allSatisfy { $0.attributes.contains { $0.name == "class" } },
            "an svg the page did not write")
        #expect(
            html.contains(
                "com.evil&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;\u{FFFD}gpj.exe"
            ))
        #expect(!html.unicodeScalars.contains("\u{202E}"), "no right-to-left override reaches the page")
        #expect(html.contains("&lt;svg onload=alert(3)&gt;.xcappdata"))
        #expect(
            html.contains("not a container: found &lt;b&gt;nothing&lt;/b&gt;\nsecond line"),
            "message keeps its lines, escaped")
        // The link to the hostile app's folder stays a relative path into it.
        #expect(html.contains("href=\"javascript%3Aalert%284%29/"))
    }

    @Test func eachAppShowsItsLatestTotalsAndTheChangeSinceThePreviousRun() {
        #expect(html.contains("+300 KB (+25.0%)"), "1.2 MB → 1.5 MB against the named previous run")
        #expect(html.contains("against 2026-11-20T020000Z"))
        #expect(html.contains("+200 KB (+20.0%)"), "the run-by-run table has each step")
        #expect(html.contains("1 error · 2 warnings · 0 notes"))
        #expect(html.contains("policy failure"))
        #expect(html.contains("first recorded run"), "an app with one run has no change")
        #expect(html.contains("href=\"com.example.chat/2026-11-21T020000Z/report.html\""))
        #expect(html.contains("href=\"com.example.chat/2026-11-21T020000Z/diff.html\""))
    }

    @Test func theTrendCarriesItsValuesAsText() {
        let structure = HTMLStructure(html)
        let chart = html.components(separatedBy: "<svg class=\"trend\"")[1].components(separatedBy: "</svg>")[0]
        #expect(chart.components(separatedBy: "<rect").count - 1 == 3, "one bar per run")
        for text in [
            "2026-11-19T020000Z: 1.0 MB", "2026-11-20T020000Z: 1.2 MB", "2026-11-21T020000Z: 1.5 MB (policy failure)",
        ] {
            #expect(chart.contains("<title>\(text)</title>"), "\(text)")
        }
        #expect(structure.elements(named: "details").count == 2, "a run-by-run table per app, readable without script")
    }

    @Test func failedInputsAreListed() {
        #expect(html.contains("<h2 id=\"failures-title\">Failed inputs</h2>"))
        let empty = String(
            decoding: NightlyIndexPage.render(NightlyIndex(generatedAt: "now", apps: [], failures: [])), as: UTF8.self)
        #expect(empty.contains("None: every input was audited."))
        #expect(HTMLStructure(empty).problems == [])
    }
}
