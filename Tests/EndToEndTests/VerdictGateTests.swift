import Foundation
import TestSupport
import Testing

/// Every gate that can make `audit` exit 2 is the gate its verdict names, on the terminal and at the top of
/// report.html, and the verdict says failed exactly when the exit status does.
@Suite struct VerdictGateTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        /// stocktake.yml's text, or nil for none.
        let config: String?
        let status: Int32
        /// The gates the verdict names, in its order.
        let gates: [String]
        var testDescription: String { (arguments + (config.map { [$0] } ?? [])).joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: [], config: nil, status: 0, gates: ["--fail-on error"]),
        Case(arguments: ["--strict"], config: nil, status: 2, gates: ["--fail-on warning"]),
        Case(
            arguments: ["--require-content-coverage"], config: nil, status: 2, gates: ["--require-content-coverage"]),
        Case(
            arguments: ["--fail-on", "never", "--require-content-coverage"], config: nil, status: 2,
            gates: ["--require-content-coverage"]),
        Case(arguments: ["--fail-on", "never"], config: nil, status: 0, gates: ["--fail-on never"]),
        Case(arguments: [], config: "contentCoverage: required\n", status: 2, gates: ["contentCoverage: required"]),
        Case(
            arguments: ["--strict", "--require-content-coverage"], config: nil, status: 2,
            gates: ["--fail-on warning", "--require-content-coverage"]),
        // An exceeded budget fails whatever severity its finding was given.
        Case(
            arguments: [], config: "budgets:\n  total: 1KB\nrules:\n  budget-exceeded:\n    severity: note\n",
            status: 2, gates: ["budgets"]),
    ]

    @Test("the verdict's word and gates follow the exit status", arguments: cases)
    func verdictFollowsExitStatus(_ check: Case) throws {
        let tree = try TemporaryTree("verdict")
        try tree.write("Documents/debug.log", string: "internal")
        // A property list that does not parse: the content checks leave it unread.
        try tree.write(
            "Library/Preferences/broken.plist", bytes: Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 64))
        let out = try TemporaryTree("verdict-out")
        var arguments = ["audit", tree.root, "--output", out.path("r"), "--format", "html"] + check.arguments
        if let config = check.config {
            try out.write("stocktake.yml", string: config)
            arguments += ["--config", out.path("stocktake.yml")]
        }
        let run = try StocktakeProcess.run(arguments)
        #expect(run.status == check.status, "\(run.stderr)")
        let word = check.gates == ["--fail-on never"] ? "No gate" : check.status == 2 ? "Failed" : "Passed"
        let first = run.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("\(word) (\(check.gates.joined(separator: ", "))): "), "\(run.stdout)")
        #expect(run.stderr.hasPrefix("stocktake: failed: ") == (check.status == 2), "\(run.stderr)")

        let page = try String(contentsOfFile: out.path("r/report.html"), encoding: .utf8)
        let head = try #require(
            page.range(of: #"<p class="v-head">.*?</p>"#, options: .regularExpression).map { String(page[$0]) })
        #expect(head.contains("<strong class=\"v-word\">\(word)</strong>"), "\(head)")
        let codes = head.components(separatedBy: "<code>").dropFirst().compactMap {
            $0.components(separatedBy: "</code>").first
        }
        #expect(codes == check.gates, "\(head)")
        if check.gates.contains("--require-content-coverage") {
            #expect(head.contains("Library/Preferences/broken.plist"), "the unread file is named: \(head)")
        }
    }

    /// `record --fail-on` counts a run as a policy failure exactly when `audit` with the same `--fail-on` exits 2,
    /// an exceeded budget included (it once failed the run under `never`, where the audit passed).
    @Test("record's status follows the audit's exit status", arguments: ["never", "warning", "error"])
    func recordFollowsTheAudit(_ failOn: String) throws {
        let tree = try TemporaryTree("verdict-record")
        try tree.write("Documents/debug.log", string: "internal")
        try tree.mkdir("Library/Preferences")
        let out = try TemporaryTree("verdict-record-out")
        try out.write(
            "stocktake.yml", string: "budgets:\n  total: 1KB\nrules:\n  budget-exceeded:\n    severity: note\n")
        let audit = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.path("r"), "--format", "json", "--config", out.path("stocktake.yml"),
            "--fail-on", failOn,
        ])
        #expect(audit.status == (failOn == "never" ? 0 : 2), "\(audit.stderr)")
        let history = out.path("history.sqlite")
        let record = try StocktakeProcess.run(["record", out.path("r"), "--history", history, "--fail-on", failOn])
        #expect(record.status == 0, "\(record.stderr)")
        let shown = try StocktakeProcess.run(["history", "unknown-app", "--history", history, "--format", "json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let status = audit.status == 2 ? "policyFailure" : "clean"
        #expect(shown.stdout.contains("\"status\": \"\(status)\""), "\(shown.stdout)")
    }

    /// `record --require-content-coverage` fails a run whose report.json says a file was not read whole, as the
    /// audit's flag does; without it, that run is clean.
    @Test func recordRequiresCoverageAsTheAuditDoes() throws {
        let tree = try TemporaryTree("verdict-coverage")
        try tree.write("Documents/notes.txt", string: "hello")
        try tree.write(
            "Library/Preferences/broken.plist", bytes: Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 64))
        let out = try TemporaryTree("verdict-coverage-out")
        let audit = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.path("r"), "--format", "json", "--fail-on", "never",
            "--require-content-coverage",
        ])
        #expect(audit.status == 2, "\(audit.stderr)")
        for (flags, status) in [([String](), "clean"), (["--require-content-coverage"], "policyFailure")] {
            let history = out.path("history-\(flags.count).sqlite")
            let record = try StocktakeProcess.run(
                ["record", out.path("r"), "--history", history, "--fail-on", "never"] + flags)
            #expect(record.status == 0, "\(record.stderr)")
            let shown = try StocktakeProcess.run(["history", "unknown-app", "--history", history, "--format", "json"])
            #expect(shown.stdout.contains("\"status\": \"\(status)\""), "\(flags): \(shown.stdout)")
        }
    }
}
