import Foundation
import TestSupport
import Testing

/// The command examples of the README and docs/*.md, run as a reader would run them, so they stay true (as
/// `DocumentationTests` keeps the links true). Every line of a fenced block that starts with `stocktake ` or
/// `swift run stocktake ` is an example: run with the built binary, in document order, in a temporary folder
/// holding a copy of the sample (`Samples/ChatApp.xcappdata`, `Samples/stocktake.yml`, `Reports/Example`), or
/// listed in `skipped` with why. A new example is run or must be listed; none is passed over in silence.
@Suite struct DocumentationExampleTests {
    static let repository = SampleReportTests.repository
    static let documents = [
        "README.md", "docs/design.md", "docs/policy.md", "docs/reports.md", "docs/usage.md", "docs/fleet.md",
    ]

    /// Examples that need what a test cannot have, by their exact text, and why.
    static let skipped: [String: String] = [
        "stocktake simulators": "needs a Mac's CoreSimulator device set",
        "stocktake audit --simulator booted --app com.example.chat": "needs a booted simulator",
        "stocktake devices": "needs a connected device and Xcode's devicectl (DeviceCommandTests use a stand-in)",
        "stocktake devices --apps \"Anna's iPhone\"":
            "needs a connected device and Xcode's devicectl (DeviceCommandTests use a stand-in)",
        "stocktake audit --device \"Anna's iPhone\" --app com.example.chat":
            "needs a connected device and Xcode's devicectl (DeviceCommandTests use a stand-in)",
        "stocktake audit --device \"Anna's iPhone\" --app com.example.chat --app-group group.com.example.chat":
            "needs a connected device and Xcode's devicectl (DeviceCommandTests use a stand-in)",
        "stocktake history com.example.chat --reports /srv/stocktake/Reports":
            "needs the history a nightly job run by cron wrote",
        "stocktake apps ~/Library/Application\\ Support/MobileSync/Backup/UDID": "needs a device backup",
        "stocktake audit ~/Library/Application\\ Support/MobileSync/Backup/UDID --app com.example.chat":
            "needs a device backup",
        "stocktake audit MyApp.xcappdata --backup ~/Library/Application\\ Support/MobileSync/Backup/UDID":
            "needs a device backup",
        "stocktake nightly /srv/exports/inbox Reports --history postgresql://stocktake@db.example.com/stocktake --source farm-ipad --metrics-file /var/lib/node_exporter/stocktake.prom":
            "needs a PostgreSQL server (PostgresSharedHistoryTests run the nightly job against one)",
        "stocktake index --history postgresql://stocktake@db.example.com/stocktake --output /srv/www/stocktake":
            "needs a PostgreSQL server (SharedHistoryTests build the index from a shared history)",
        "stocktake record out/report.json --history postgresql://stocktake@db.example.com/stocktake --source ci-simulator --report-url \"$CI_JOB_URL/artifacts\" --metrics-file /var/lib/node_exporter/stocktake-chat.prom":
            "needs a PostgreSQL server and node_exporter's folder (SharedHistoryTests record and check the metrics)",
    ]

    /// The reader's own files in an example, and what stands in for them: the sample and its report.
    static let standIns = [
        "MyApp.xcappdata": "Samples/ChatApp.xcappdata",
        "v1/report.json": "Reports/Example/report.json",
        "v2/report.json": "Reports/Example/report.json",
    ]

    struct Example: CustomStringConvertible {
        let file: String
        let line: Int
        /// The command as written, continuation lines joined, blanks collapsed, a trailing comment left out.
        let text: String
        /// What the shell would pass the program.
        let words: [String]
        /// The trailing `# …` comment; `# exits 1` marks a documented failure.
        let comment: String
        var description: String { "\(file):\(line): \(text)" }

        init(file: String, line: Int, command: String) {
            self.file = file
            self.line = line
            let (words, commentStart) = ShellWords.split(command)
            self.words = words
            let code = commentStart.map { command[..<$0] } ?? command[...]
            text = code.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            comment =
                commentStart.map { command[command.index(after: $0)...].trimmingCharacters(in: .whitespaces) } ?? ""
        }
    }

    /// Lines of fenced blocks that start a command (`\` continues one). A line holding `[` is usage grammar
    /// (the synopsis: `stocktake audit CONTAINER [--output DIR]`), not a command.
    static func examples(in text: String, file: String) -> [Example] {
        var examples: [Example] = []
        var fenced = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            let line = lines[index]
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            let trimmed = line.drop { $0 == " " }
            guard fenced,
                trimmed.hasPrefix("stocktake ") || trimmed.hasPrefix("swift run stocktake ") || trimmed == "stocktake"
            else { continue }
            let start = index
            var command = String(trimmed)
            while command.hasSuffix("\\"), index + 1 < lines.count {
                index += 1
                command = String(command.dropLast()) + " " + lines[index].drop { $0 == " " }
            }
            guard !command.contains("[") else { continue }
            examples.append(Example(file: file, line: start + 1, command: command))
        }
        return examples
    }

    static func allExamples() throws -> [Example] {
        try documents.flatMap { file in
            examples(in: try String(contentsOfFile: repository + "/" + file, encoding: .utf8), file: file)
        }
    }

    @Test("every example in the README and docs/*.md runs against the sample and ends as the docs allow")
    func everyExampleRuns() throws {
        let examples = try Self.allExamples()
        #expect(
            examples.contains { $0.text == "swift run stocktake audit Samples/ChatApp.xcappdata" },
            "the README's first command")
        var workspaces: [String: TemporaryTree] = [:]
        for example in examples where Self.skipped[example.text] == nil {
            let workspace = try workspaces[example.file] ?? Self.workspace()
            workspaces[example.file] = workspace
            let arguments = try Self.arguments(example)
            let result = try StocktakeProcess.run(arguments, currentDirectory: workspace.root, timeout: 300)
            // 0 ran and passed, 2 a policy failure (the sample breaks rules on purpose); 1 only where the docs say so.
            let allowed: Set<Int32> = example.comment.contains("exits 1") ? [0, 1, 2] : [0, 2]
            #expect(
                allowed.contains(result.status) && !result.timedOut,
                "\(example) exited \(result.status): \(result.stderr)")
            #expect(!result.stderr.contains("Usage:"), "\(example) printed a usage error: \(result.stderr)")
        }
    }

    @Test("each skipped example is still in the docs, and says why it is skipped")
    func theSkipListIsCurrent() throws {
        let texts = Set(try Self.allExamples().map(\.text))
        for (text, reason) in Self.skipped {
            #expect(texts.contains(text), "skipped, but no longer in the docs: \(text)")
            #expect(!reason.isEmpty)
        }
    }

    @Test func examplesAreReadAsTheShellReadsThem() {
        let text = """
            ```
            stocktake audit A\\ B --output 'x y' \\
              --fail-on "never"   # exits 1
            stocktake audit CONTAINER [--output DIR]
            stocktake rules
            ```
            stocktake outside a block
            """
        let found = Self.examples(in: text, file: "t.md")
        #expect(found.map(\.text) == [#"stocktake audit A\ B --output 'x y' --fail-on "never""#, "stocktake rules"])
        #expect(found.first?.words == ["stocktake", "audit", "A B", "--output", "x y", "--fail-on", "never"])
        #expect(found.first?.comment == "exits 1" && found.first?.line == 2)
    }

    /// The binary's arguments: the example's words after `stocktake`, the reader's files replaced by stand-ins.
    static func arguments(_ example: Example) throws -> [String] {
        var words = example.words
        if words.starts(with: ["swift", "run"]) { words.removeFirst(2) }
        try #require(words.first == "stocktake", "\(example)")
        return words.dropFirst().map { standIns[$0] ?? $0 }
    }

    /// A folder holding what a fresh clone has of the sample, at the same relative paths.
    static func workspace() throws -> TemporaryTree {
        let tree = try TemporaryTree("examples")
        try tree.mkdir("Samples")
        try tree.mkdir("Reports")
        for path in ["Samples/ChatApp.xcappdata", "Samples/stocktake.yml", "Reports/Example"] {
            let copied = try StocktakeProcess.runCommand(["/bin/cp", "-R", repository + "/" + path, tree.path(path)])
            try #require(copied.status == 0, "\(copied.stderr)")
        }
        return tree
    }
}

/// A shell's word splitting, as far as the docs' examples need it: blanks separate words, `\` escapes the next
/// character, '…' and "…" quote, and `#` at the start of a word starts a comment.
enum ShellWords {
    /// The words as the program gets them, and where a trailing comment starts.
    static func split(_ command: String) -> (words: [String], commentStart: String.Index?) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        var index = command.startIndex
        while index < command.endIndex {
            let character = command[index]
            defer { index = command.index(after: index) }
            if escaped {
                word.append(character)
                escaped = false
                inWord = true
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
                continue
            }
            switch character {
            case "\\": escaped = true
            case "'", "\"":
                quote = character
                inWord = true
            case " ", "\t":
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            case "#" where !inWord:
                return (words, index)
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return (words, nil)
    }
}
