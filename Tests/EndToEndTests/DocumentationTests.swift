import Foundation
import TestSupport
import Testing

/// The documentation as a reader meets it: the README stays a front door, and every relative link of every
/// Markdown file leads to a file inside the repository that exists (and to a heading that exists, for `#anchors`).
@Suite struct DocumentationTests {
    static let repository = SampleReportTests.repository

    /// The Markdown files git tracks (run folders under `Reports/` hold `summary.md` files that are not the docs).
    static func markdownFiles() throws -> [String] {
        let listed = try StocktakeProcess.runCommand(["git", "-C", repository, "ls-files", "*.md"])
        try #require(listed.status == 0, "git ls-files: \(listed.stderr)")
        return listed.stdout.split(separator: "\n").map(String.init)
    }

    @Test func theReadmeIsAFrontDoor() throws {
        let readme = try String(contentsOfFile: Self.repository + "/README.md", encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
        // The two commands a fresh clone runs, as `.ci/run` runs them.
        #expect(readme.contains("swift run stocktake audit Samples/ChatApp.xcappdata\n"))
        #expect(readme.contains("swift test --disable-xctest\n"))
    }

    @Test func everyRelativeLinkResolves() throws {
        let files = try Self.markdownFiles()
        #expect(files.contains("docs/usage.md") && files.contains("README.md"))
        var broken: [String] = []
        for file in files {
            let text = try String(contentsOfFile: Self.repository + "/" + file, encoding: .utf8)
            let folder = (file as NSString).deletingLastPathComponent
            for target in Self.links(in: text) where !target.contains("://") && !target.hasPrefix("mailto:") {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let path =
                    parts[0].isEmpty
                    ? file : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                guard !path.hasPrefix(".."), FileManager.default.fileExists(atPath: Self.repository + "/" + path) else {
                    broken.append("\(file): \(target)")
                    continue
                }
                if parts.count == 2, path.hasSuffix(".md") {
                    let headings = try Self.anchors(
                        String(contentsOfFile: Self.repository + "/" + path, encoding: .utf8))
                    if !headings.contains(parts[1]) { broken.append("\(file): \(target) (no such heading)") }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken)")
    }

    /// docs/reports.md's list of report.json's top-level keys names every key the schema has.
    @Test func theReportsDocNamesEveryTopLevelKey() throws {
        let schema = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: Self.repository + "/Reports/report.schema.json")))
        let keys = try #require(((schema as? [String: Any])?["properties"] as? [String: Any])?.keys)
        let text = try String(contentsOfFile: Self.repository + "/docs/reports.md", encoding: .utf8)
        let start = try #require(text.range(of: "Top-level keys:"))
        let list = text[
            start
                .upperBound..<(text.range(of: "\n\n", range: start.upperBound..<text.endIndex)?.lowerBound
                ?? text.endIndex)]
        let missing = keys.filter { key in !["`\(key)`", "`\(key)[]`", "`\(key): "].contains { list.contains($0) } }
        #expect(missing.isEmpty, "docs/reports.md does not name: \(missing.sorted())")
    }

    /// `[text](target)` links, code spans and fenced blocks left out.
    static func links(in text: String) -> [String] {
        var links: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 0
            }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                links.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return links
    }

    /// GitHub's anchors of a Markdown file's headings: lowercased, punctuation but `-` and `_` dropped, spaces as `-`.
    static func anchors(_ text: String) throws -> Set<String> {
        var anchors: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            anchors.insert(
                String(
                    title.compactMap {
                        $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : nil
                    }))
        }
        return anchors
    }
}
