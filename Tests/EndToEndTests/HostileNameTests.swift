import Foundation
import TestSupport
import Testing

/// Names that try to drive the terminal or forge GitHub Actions workflow commands, through the real
/// binary's terminal output (issue 10, F3). The runner reads `::command` lines from stdout and stderr
/// alike, after trimming leading white space.
@Suite struct HostileNameTests {
    /// The name of issue 10: its line break would start a forged `::error` command.
    static let forgedCommand = "nl\n::error file=evil.swift,line=1::INJECTED.log"
    /// Retitles the window, clears the screen, returns the cursor; a C1 CSI and a right-to-left override.
    static let terminalCommands = "title\u{1B}]0;owned\u{07}clear\u{1B}[2J\rcr\u{9B}31m\u{202E}gol.log"

    /// The container's own folder: the summary and the reports path quote it.
    static let root = "box\n::error::container\u{1B}[2J"

    static func container() throws -> TemporaryTree {
        let tree = try TemporaryTree("hostile")
        try tree.write("\(Self.root)/Documents/\(forgedCommand)", string: "log line\n")
        try tree.write("\(Self.root)/Documents/\(terminalCommands)", string: "log line\n")
        try tree.symlink(
            "\(Self.root)/Library/Application Support/current", to: "/var/\u{1B}]0;target\u{07}\n::error::symlink")
        try tree.mkdir("\(Self.root)/tmp")
        return tree
    }

    /// Lines a GitHub runner would take for workflow commands.
    static func commandLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("::") }
    }

    /// Scalars that must never reach a terminal raw: C0 controls but the line feed, DEL, C1 controls,
    /// bidirectional controls, line and paragraph separators.
    static func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { value in
            (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value)
                || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
    }

    @Test func theSummaryShowsHostileNamesWithoutObeyingThem() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("hostile-out")
        let result = try StocktakeProcess.run([
            "audit", tree.path(Self.root), "--output", out.root, "--fail-on", "never",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.commandLines(result.stdout).isEmpty, "\(result.stdout)")
        #expect(Self.rawControls(result.stdout).isEmpty, "\(result.stdout)")
        #expect(
            result.stdout.contains("Container:  \(tree.root)/box\\x0a::error::container\\x1b[2J"), "\(result.stdout)")
        #expect(
            result.stdout.contains("Documents/nl\\x0a::error file=evil.swift,line=1::INJECTED.log"), "\(result.stdout)")
        #expect(
            result.stdout.contains("Documents/title\\x1b]0;owned\\x07clear\\x1b[2J\\x0dcr\\u{9b}31m\\u{202e}gol.log"),
            "\(result.stdout)")
        // The symlink-escape message quotes the link's target.
        #expect(result.stdout.contains("to “/var/\\x1b]0;target\\x07\\x0a::error::symlink”"), "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        withExtendedLifetime(tree) {}
    }

    @Test func onlyTheGitHubFormatPrintsCommands() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("hostile-out")
        let result = try StocktakeProcess.run([
            "audit", tree.path(Self.root), "--output", out.root, "--format", "json,github", "--fail-on", "never",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: out.path("report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let commands = Self.commandLines(result.stdout)
        #expect(commands.count == findings.count, "one annotation per finding, nothing forged: \(commands)")
        for line in commands {
            #expect(
                line.range(
                    of: #"^::(error|warning|notice) title=[a-z-]+( in the container at [^:]*)?::"#,
                    options: .regularExpression)
                    != nil, "\(line)")
        }
        #expect(Self.rawControls(result.stdout).isEmpty, "\(result.stdout)")
        withExtendedLifetime(tree) {}
    }

    @Test func errorsQuoteHostilePathsOnOneLine() throws {
        let tree = try TemporaryTree("hostile")
        let result = try StocktakeProcess.run(["audit", tree.path("gone\n::error::missing\u{1B}[2J\r")])
        #expect(result.status == 1)
        #expect(Self.commandLines(result.stderr).isEmpty, "\(result.stderr)")
        #expect(Self.rawControls(result.stderr).isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("gone\\x0a::error::missing\\x1b[2J\\x0d"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func aContainerListingHostileNamesIsRefusedOnOneLine() throws {
        let tree = try TemporaryTree("hostile")
        try tree.write("\(Self.forgedCommand)/x", string: "x")
        try tree.write("\(Self.terminalCommands)", string: "x")
        let result = try StocktakeProcess.run(["audit", tree.root])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not an app data container"), "\(result.stderr)")
        #expect(Self.commandLines(result.stderr).isEmpty, "\(result.stderr)")
        #expect(Self.rawControls(result.stderr).isEmpty, "\(result.stderr)")
    }
}
