import Foundation
import StocktakeModel
import TestSupport
import Testing

/// Issue 11's promise: one glossary, one byte formatter, one percent formatter. Every view of the two sample
/// versions (terminal, report.html, summary.md, the diff as text, Markdown, HTML and JSON, the history table
/// and the nightly index) is rendered by the real binary, and each glossary figure it names must read as
/// report.json says, formatted by the one formatter; no view may use an old or private name for a figure.
@Suite(.serialized) struct FiguresConsistencyTests {
    static let repository = SampleReportTests.repository

    /// Both versions audited (v1 also through the nightly job, then v2), diffed in every format.
    final class Views {
        let folder: TemporaryTree
        var texts: [(view: String, text: String)] = []
        /// `totals` of v1's and v2's report.json.
        let totals: [[String: Any]]
        let diffJSON: [String: Any]

        init() throws {
            folder = try TemporaryTree("figures")
            var totals: [[String: Any]] = []
            for version in [1, 2] {
                let name = "v\(version)/ChatApp.xcappdata"
                let made = try StocktakeProcess.runCommand(
                    [
                        "/usr/bin/env", "python3", repository + "/Samples/make_sample.py", "--version", "\(version)",
                        "--out", folder.path(name),
                    ])
                try #require(made.status == 0, "\(made.stderr)")
                let audit = try StocktakeProcess.run(
                    ["audit", name, "--output", "r\(version)", "--format", "json,html,markdown"],
                    currentDirectory: folder.root)
                try #require([0, 2].contains(audit.status), "\(audit.stderr)")
                texts.append(("terminal v\(version)", audit.stdout))
                texts.append(("report.html v\(version)", try Self.pageText(folder.path("r\(version)/report.html"))))
                let markdown = try String(contentsOfFile: folder.path("r\(version)/summary.md"), encoding: .utf8)
                texts.append(("summary.md v\(version)", Self.unescaped(markdown)))
                let json = try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: folder.path("r\(version)/report.json"))))
                totals.append(try #require((json as? [String: Any])?["totals"] as? [String: Any]))
            }
            self.totals = totals
            for format in ["text", "markdown", "html", "json"] {
                let diff = try StocktakeProcess.run(
                    ["diff", "r1", "r2", "--format", format, "--output", "diff.\(format)"],
                    currentDirectory: folder.root)
                try #require(diff.status == 0, "\(diff.stderr)")
                let text =
                    format == "html"
                    ? try Self.pageText(folder.path("diff.html"))
                    : try String(contentsOfFile: folder.path("diff.\(format)"), encoding: .utf8)
                if format != "json" { texts.append(("diff \(format)", Self.unescaped(text))) }
            }
            diffJSON = try #require(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("diff.json"))))
                    as? [String: Any])
            // The nightly job, one version a night.
            for version in [1, 2] {
                try FileManager.default.createDirectory(atPath: folder.path("inbox"), withIntermediateDirectories: true)
                try? FileManager.default.removeItem(atPath: folder.path("inbox/ChatApp.xcappdata"))
                try FileManager.default.copyItem(
                    atPath: folder.path("v\(version)/ChatApp.xcappdata"), toPath: folder.path("inbox/ChatApp.xcappdata")
                )
                let night = try StocktakeProcess.run(["nightly", "inbox", "nightly"], currentDirectory: folder.root)
                try #require([0, 2].contains(night.status), "\(night.stderr)")
            }
            texts.append(("nightly index", try Self.pageText(folder.path("nightly/index.html"))))
            let history = try StocktakeProcess.run(
                ["history", "com.example.chat", "--reports", "nightly"], currentDirectory: folder.root)
            try #require(history.status == 0, "\(history.stderr)")
            texts.append(("history", history.stdout))
        }

        /// The page as lines of text: one line per table row, card, list item, paragraph or heading.
        static func pageText(_ path: String) throws -> String {
            var html = try String(contentsOfFile: path, encoding: .utf8)
            if let body = html.range(of: "<body") { html = String(html[body.lowerBound...]) }
            if let script = html.range(of: "<script") { html = String(html[..<script.lowerBound]) }
            for boundary in [
                "</tr>", "</li>", "</p>", "</summary>", "</h1>", "</h2>", "</h3>", "<div class=\"card\"",
                "<div class=\"card wide", "<div class=\"dc-row",
                "<div class=\"t-row", "</details>", "</dd>", "</dt>", "</th>",
            ] {
                html = html.replacingOccurrences(of: boundary, with: "\n" + boundary)
            }
            var text = ""
            var inTag = false
            for character in html {
                if character == "<" {
                    inTag = true
                } else if character == ">" {
                    inTag = false
                    text.append(" ")
                } else if !inTag {
                    text.append(character)
                }
            }
            return unescaped(text)
        }

        /// HTML entities as a reader sees them (Markdown escapes `&` too, and GitHub shows it as `&`).
        static func unescaped(_ text: String) -> String {
            var text = text
            for (entity, character) in [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'")]
            {
                text = text.replacingOccurrences(of: entity, with: character)
            }
            return text
        }
    }

    nonisolated(unsafe) static let shared: Views = try! Views()

    /// What a byte figure may read as: the formatter's output for v1's or v2's allocated or apparent bytes
    /// (diffs and the nightly pages show both versions; location tables show apparent beside allocated).
    func acceptable(_ figure: Figure) throws -> Set<String> {
        var values: Set<String> = []
        for totals in Self.shared.totals {
            var node: Any? = totals
            for key in figure.jsonKey.split(separator: ".").dropFirst() {
                node = (node as? [String: Any])?[String(key)]
            }
            let total = try #require(node as? [String: Any], "report.json has \(figure.jsonKey)")
            for key in ["allocatedBytes", "apparentBytes"] {
                values.insert(ByteCount.format(try #require((total[key] as? NSNumber)?.int64Value)))
            }
        }
        return values
    }

    /// Not inside a word: a temporary folder's UUID holds pieces such as `B3EB`.
    static let byteToken = try! NSRegularExpression(
        pattern: #"(?<![0-9A-Za-z.,-])-?[0-9][0-9.,]* ?(?:bytes?|[KMGTPE]B)\b"#)
    static let formatterShape = try! NSRegularExpression(
        pattern: #"^-?(?:[0-9]{1,3} bytes?|[0-9]{1,2}\.[0-9] [KMGTPE]B|[0-9]{3} [KMGTPE]B)$"#)

    static func tokens(in text: Substring) -> [String] {
        let string = String(text)
        return byteToken.matches(in: string, range: NSRange(string.startIndex..., in: string)).compactMap {
            Range($0.range, in: string).map { String(string[$0]) }
        }
    }

    @Test("every figure a view names reads as report.json says, with the one byte formatter")
    func figuresAgree() throws {
        let names = Figure.allCases.map { ($0, $0.name) }
        var checked: [String: Set<Figure>] = [:]
        for (view, text) in Self.shared.texts {
            for line in text.split(separator: "\n") {
                // Every occurrence of a figure's name; its value is the first size after it, before the next name.
                var found: [(range: Range<String.Index>, figure: Figure)] = []
                for (figure, name) in names {
                    var from = line.startIndex
                    while let range = line.range(of: name, range: from..<line.endIndex) {
                        let after = range.upperBound < line.endIndex ? line[range.upperBound] : " "
                        let before =
                            range.lowerBound > line.startIndex ? line[line.index(before: range.lowerBound)] : " "
                        if !after.isLetter && !before.isLetter { found.append((range, figure)) }
                        from = range.upperBound
                    }
                }
                found.sort { $0.range.lowerBound < $1.range.lowerBound }
                for (position, occurrence) in found.enumerated() {
                    let end = position + 1 < found.count ? found[position + 1].range.lowerBound : line.endIndex
                    guard occurrence.range.upperBound <= end,
                        let value = Self.tokens(in: line[occurrence.range.upperBound..<end]).first
                    else { continue }
                    let expected = try acceptable(occurrence.figure)
                    #expect(
                        expected.contains(value),
                        "\(view): \(occurrence.figure.name) reads \(value), report.json says one of \(expected.sorted()): \(line)"
                    )
                    checked[view, default: []].insert(occurrence.figure)
                }
                for token in Self.tokens(in: line) {
                    let range = NSRange(token.startIndex..., in: token)
                    #expect(
                        Self.formatterShape.firstMatch(in: token, range: range) != nil,
                        "\(view): \(token) is not the one byte formatter's: \(line)")
                }
            }
        }
        // Each view shows the headline figures (the history keeps no split of the exclusions).
        let headline: Set<Figure> = [.onDisk, .documentsAndData, .purgeable, .backedUp]
        for (view, _) in Self.shared.texts where !view.hasPrefix("history") && !view.hasPrefix("nightly") {
            #expect(
                headline.isSubset(of: checked[view] ?? []), "\(view) shows \(checked[view]?.map(\.name).sorted() ?? [])"
            )
        }
        for view in ["terminal v1", "report.html v1", "summary.md v1"] {
            let all: Set<Figure> = [
                .onDisk, .appData, .documentsAndData, .purgeable, .backedUp, .excludedByApp, .excludedByIOS,
            ]
            #expect(all.isSubset(of: checked[view] ?? []), "\(view) shows \(checked[view]?.map(\.name).sorted() ?? [])")
        }
        #expect(checked["nightly index", default: []].isSuperset(of: [.onDisk, .documentsAndData, .backedUp]))
    }

    @Test("no view uses an old or private name for a glossary figure")
    func noOtherNames() {
        let retired = [
            "Excluded by flag", "Excluded by location", "Excluded by the system", "Excluded from backup", "Docs & Data",
            "Allocated on disk", "Purgeable (", "TOTAL", "Transport metadata", "Folders themselves",
        ]
        let singularSlip = try! NSRegularExpression(
            pattern: #"(?<![0-9,.])1 (files|entries|folders|findings|warnings|errors|rules)\b"#)
        for (view, text) in Self.shared.texts {
            for name in retired { #expect(!text.contains(name), "\(view) says \(name)") }
            let slip = singularSlip.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
            #expect(
                slip == nil, "\(view) says \(slip.flatMap { Range($0.range, in: text).map { String(text[$0]) } } ?? "")"
            )
        }
    }

    @Test("the diff's JSON totals are the two reports' totals")
    func diffJSONAgrees() throws {
        let totals = try #require(Self.shared.diffJSON["totals"] as? [String: Any])
        for figure in [
            Figure.onDisk, .documentsAndData, .purgeable, .backedUp, .excludedByApp, .excludedByIOS, .backupUnknown,
        ] {
            var node: Any? = totals
            for key in figure.jsonKey.split(separator: ".").dropFirst() {
                node = (node as? [String: Any])?[String(key)]
            }
            let row = try #require(node as? [String: Any], "diff totals hold \(figure.jsonKey)")
            for (side, report) in zip(["old", "new"], Self.shared.totals) {
                var expected: Any? = report
                for key in figure.jsonKey.split(separator: ".").dropFirst() {
                    expected = (expected as? [String: Any])?[String(key)]
                }
                let sideTotal = try #require(row[side] as? [String: Any], "\(figure.jsonKey).\(side)")
                let reportTotal = try #require(expected as? [String: Any])
                #expect(
                    (sideTotal["allocatedBytes"] as? NSNumber) == (reportTotal["allocatedBytes"] as? NSNumber),
                    "\(figure.name) \(side)")
            }
        }
    }

    @Test("App data is the sum of the locations and of the backup states, and On disk adds folders and artefacts")
    func glossaryArithmetic() throws {
        for totals in Self.shared.totals {
            func allocated(_ path: [String]) -> Int64 {
                var node: Any? = totals
                for key in path { node = (node as? [String: Any])?[key] }
                return ((node as? [String: Any])?["allocatedBytes"] as? NSNumber)?.int64Value ?? -1
            }
            let locations = Location.allCases.reduce(Int64(0)) { $0 + allocated(["byLocation", $1.rawValue]) }
            let backup = BackupState.allCases.reduce(Int64(0)) { $0 + allocated(["backup", $1.rawValue]) }
            #expect(allocated(["appData"]) == locations)
            #expect(allocated(["appData"]) == backup)
            #expect(allocated(["appData"]) == allocated(["documentsAndData"]) + allocated(["purgeable"]))
            #expect(
                allocated(["onDisk"]) == allocated(["appData"]) + allocated(["directories"])
                    + allocated(["transportArtefacts"]))
        }
    }

    @Test("the glossary in docs/reports.md is the one the views use")
    func documentedGlossary() throws {
        let reports = try String(contentsOfFile: Self.repository + "/docs/reports.md", encoding: .utf8)
        for figure in Figure.allCases {
            #expect(
                reports.contains("| \(figure.name) | \(figure.definition) | `\(figure.jsonKey)` |"),
                "docs/reports.md row of \(figure.name)")
        }
    }
}
