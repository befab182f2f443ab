import Foundation
import TestSupport
import Testing

/// A generated container (`Benchmarks/make_tree.py`, the benchmark's generator at a small size) audited by
/// the real binary, and every row of `report.json` checked against what an independent walker (Python's
/// `os.lstat`, its own signature table) and `du` say of the same tree: the walk's fast paths (one stat per
/// entry, files opened before their stat, rows appended as bytes) must not change a figure or an entry.
@Suite(.serialized) struct GeneratedTreeOracleTests {
    static let repository = Repository.root

    /// Walks the tree and compares each report row; prints one JSON object: counts and mismatches.
    static let oracle = #"""
        import json, os, stat, sys
        tree, report_path = sys.argv[1], sys.argv[2]
        root = os.path.join(tree, "AppData")
        report = json.load(open(report_path, encoding="utf-8"))
        SIGNATURES = [(0, b"\xff\xd8\xff", "jpeg"), (0, b"\x89PNG\r\n\x1a\n", "png"), (0, b"%PDF-", "pdf"),
                      (0, b"PK\x03\x04", "zip"), (0, b"SQLite format 3\x00", "sqlite")]
        BRANDS = {b"heic": "heic", b"M4A ": "m4a", b"qt  ": "mov", b"isom": "mp4"}
        def sniffed(path):
            with open(path, "rb") as handle:
                head = handle.read(16)
            for offset, magic, kind in SIGNATURES:
                if head[offset:offset + len(magic)] == magic:
                    return kind
            if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
                return "webp"
            if head[4:8] == b"ftyp":
                return BRANDS.get(head[8:12])
            return None
        TYPES = {stat.S_IFREG: "file", stat.S_IFDIR: "directory", stat.S_IFLNK: "symlink", stat.S_IFIFO: "fifo"}
        seen = {}
        for folder, folders, files in os.walk(root):
            for name in folders + files:
                path = os.path.join(folder, name)
                info = os.lstat(path)
                relative = os.path.relpath(path, root)
                kind = TYPES.get(stat.S_IFMT(info.st_mode), "other")
                expected_kind = None
                if kind == "file" and "." not in name and not name.startswith("._") and info.st_size > 0:
                    expected_kind = sniffed(path)            # named without an extension: only the content says
                elif kind == "file" and info.st_size == 0:
                    expected_kind = "empty"
                seen[relative] = (kind, info.st_size, info.st_blocks * 512, expected_kind)
        rows = {row["path"]: row for row in report["files"] + report["directories"]}
        mismatches = []
        checked_kinds = 0
        for relative, (kind, apparent, allocated, expected_kind) in seen.items():
            row = rows.get(relative)
            if row is None:
                mismatches.append("missing from the report: " + relative)
                continue
            if (row["type"], row["apparentBytes"], row["allocatedBytes"]) != (kind, apparent, allocated):
                mismatches.append("%s: report %s/%d/%d, lstat %s/%d/%d" % (relative, row["type"], row["apparentBytes"], row["allocatedBytes"], kind, apparent, allocated))
            if expected_kind is not None:
                checked_kinds += 1
                if row.get("kind") != expected_kind:
                    mismatches.append("%s: kind %s, content says %s" % (relative, row.get("kind"), expected_kind))
        extra = sorted(set(rows) - set(seen) - {""})
        mismatches += ["in the report but not in the tree: " + path for path in extra[:10]]
        package_files = sum(1 for where, _, names in os.walk(tree) for name in names if stat.S_ISREG(os.lstat(os.path.join(where, name)).st_mode))
        print(json.dumps({"entries": len(seen), "packageFiles": package_files,
                          "checkedKinds": checked_kinds, "mismatches": mismatches[:20]}))
        """#

    /// A 3,000-file container from the benchmark's generator, in `folder`.
    static func generatedTree(in folder: TemporaryTree) throws -> String {
        let tree = folder.path("tree.xcappdata")
        let made = try StocktakeProcess.runCommand(
            ["/usr/bin/env", "python3", repository + "/Benchmarks/make_tree.py", "3000", tree, "--jobs", "1"])
        try #require(made.status == 0, "\(made.stderr)")
        return tree
    }

    @Test func everyRowMatchesAnIndependentWalkAndTheTotalsMatchDu() throws {
        let folder = try TemporaryTree("generated")
        let tree = try Self.generatedTree(in: folder)
        let truth = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tree + ".truth.json")))
                as? [String: Any])
        let output = folder.path("reports")
        let audit = try StocktakeProcess.run([
            "audit", tree, "--output", output, "--quiet", "--fail-on", "never", "--timings",
        ])
        try #require(audit.status == 0, "\(audit.stderr)")
        // --timings: one line per phase on stderr, then the total.
        let phases = audit.stderr.split(separator: "\n").map { String($0) }
        for phase in ["walk", "inventory", "rules", "write json", "write html", "total"] {
            #expect(phases.contains { $0.hasPrefix("timings: " + phase) && $0.hasSuffix(" s") }, "\(phases)")
        }

        let checked = try StocktakeProcess.runCommand([
            "/usr/bin/env", "python3", "-c", Self.oracle, tree, output + "/report.json",
        ])
        try #require(checked.status == 0, "\(checked.stderr)")
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
        #expect(verdict["mismatches"] as? [String] == [])
        // The oracle's own walk agrees with the generator (the package's files, AppDataInfo.plist included).
        #expect(verdict["packageFiles"] as? Int == truth["files"] as? Int)
        #expect((verdict["checkedKinds"] as? Int ?? 0) > 100, "the tree has content-only kinds to check: \(verdict)")

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/report.json")))
                as? [String: Any])
        let totals = try #require(report["totals"] as? [String: Any])
        let onDisk = try #require(totals["onDisk"] as? [String: Any])
        #expect(onDisk["allocatedBytes"] as? Int64 == (try DiskUsage.bytes(tree + "/AppData")))
        let evidence = try #require(report["evidence"] as? [String: Any])
        #expect(evidence["appleDoubleSidecars"] as? Int == truth["appleDoubleSidecars"] as? Int)
    }

    /// The usual run judges the inventory on a second thread while report.json's rows are written, and walks
    /// with four threads; a run that writes a baseline does everything in order, and one thread walks alone.
    /// All of them must write the same bytes.
    @Test func concurrentAndSerialRunsWriteTheSameReports() throws {
        let folder = try TemporaryTree("generated-same")
        let tree = try Self.generatedTree(in: folder)
        var reports: [[Data]] = []
        for extra in [[], ["--write-baseline", folder.path("baseline.json"), "--threads", "1"]] {
            let output = folder.path("reports-\(reports.count)")
            let audit = try StocktakeProcess.run(
                ["audit", tree, "--output", output, "--quiet", "--fail-on", "never"] + extra,
                environment: ["SOURCE_DATE_EPOCH": "1800000000"])
            try #require(audit.status == 0, "\(audit.stderr)")
            reports.append(
                try ["report.json", "report.html"].map { try Data(contentsOf: URL(fileURLWithPath: output + "/" + $0)) }
            )
        }
        #expect(reports[0][0].count > 500_000, "a report with rows to compare")
        #expect(reports[0][0] == reports[1][0], "report.json differs between the concurrent and the serial run")
        #expect(reports[0][1] == reports[1][1], "report.html differs between the concurrent and the serial run")
    }
}
