import Foundation
import Testing
import TestSupport

/// The policy through the real binary: exit statuses, `--fail-on`, `--strict`, `stocktake rules`.
@Suite struct PolicyCommandTests {
    /// A container with a database and a log in Documents (hidden data), nothing else wrong.
    static func container() throws -> TemporaryTree {
        let tree = try TemporaryTree("policy")
        try tree.write("Documents/Report.pdf", bytes: Array("%PDF-1.7 body".utf8))
        try tree.write("Documents/store.sqlite", bytes: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 100))
        try tree.write("Documents/debug.log", string: "started\n")
        try tree.mkdir("Library/Preferences")
        try tree.mkdir("tmp")
        return tree
    }

    func findings(_ out: TemporaryTree) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out.path("report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(report["findings"] as? [[String: Any]])
    }

    @Test func warningsPassByDefaultAndFailWithStrictOrFailOnWarning() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        let plain = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--format", "json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let found = try findings(out)
        #expect(found.contains { $0["rule"] as? String == "documents-hidden-data" && $0["path"] as? String == "Documents/store.sqlite" })
        #expect(found.allSatisfy { $0["severity"] as? String != "error" })
        #expect(plain.stdout.contains("Findings:"))
        for flags in [["--strict"], ["--fail-on", "warning"]] {
            let result = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--format", "json", "--quiet"] + flags)
            #expect(result.status == 2, "\(flags)")
            // The reports are written even when the policy fails.
            #expect(FileManager.default.fileExists(atPath: out.path("report.json")))
        }
        let never = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--format", "json", "--strict", "--fail-on", "never", "--quiet"])
        #expect(never.status == 2, "--strict wins over --fail-on never")
        let lenient = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--format", "json", "--fail-on", "never", "--quiet"])
        #expect(lenient.status == 0)
    }

    @Test func rulesAreListedAndExplained() throws {
        let list = try StocktakeProcess.run(["rules"])
        #expect(list.status == 0)
        for id in ["documents-hidden-data", "redownloadable-in-backup", "sqlite-sidecar", "tmp-leftovers"] {
            #expect(list.stdout.contains(id), "\(id)")
        }
        let one = try StocktakeProcess.run(["rules", "documents-hidden-data"])
        #expect(one.status == 0)
        #expect(one.stdout.contains("Default severity:"))
        #expect(one.stdout.contains("Fix:"))
        let typo = try StocktakeProcess.run(["rules", "documents-hiden-data"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("did you mean 'documents-hidden-data'"))
        let badFailOn = try StocktakeProcess.run(["audit", "x", "--fail-on", "sometimes"])
        #expect(badFailOn.status == 64)
    }
}
