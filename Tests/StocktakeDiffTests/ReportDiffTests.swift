import StocktakeModel
import StocktakePolicy
import StocktakeReport
import Testing

@testable import StocktakeDiff

@Suite("Diff: what changed between two reports")
struct ReportDiffTests {
    typealias F = SnapshotFile

    @Test("added, removed and changed files, largest change first")
    func addedRemovedChanged() {
        let old = DiffSnapshots.make([
            F(path: "a", bytes: 100), F(path: "b", bytes: 50_000), F(path: "c", bytes: 10),
            F(path: "gone.log", bytes: 9000, kind: .text),
        ])
        let new = DiffSnapshots.make([
            F(path: "a", bytes: 100), F(path: "b", bytes: 90_000), F(path: "c", bytes: 20_000),
            F(path: "fresh.bin", bytes: 3),
        ])
        let files = ReportDiff.compute(old: old, new: new).files
        #expect(files.changed.map(\.id) == ["b", "c"])
        #expect(files.changed[0].allocatedDelta == 90_112 - 53_248)
        #expect(files.added.map(\.id) == ["fresh.bin"])
        #expect(files.added[0].old == nil && files.added[0].new?.apparentBytes == 3)
        #expect(files.removed.map(\.id) == ["gone.log"])
        #expect(files.moved.isEmpty && files.leftBehind.isEmpty)
    }

    @Test("a file at a new path with the same name and size is a move, not an add plus a remove")
    func movedBySameNameAndSize() {
        let old = DiffSnapshots.make([
            F(path: "Documents/chat-index.sqlite", bytes: 49_152, kind: .sqlite, location: .documents)
        ])
        let new = DiffSnapshots.make([
            F(
                path: "Library/Application Support/Search/chat-index.sqlite", bytes: 49_152, modified: 1_760_000_000,
                kind: .sqlite)
        ])
        let files = ReportDiff.compute(old: old, new: new).files
        #expect(files.added.isEmpty && files.removed.isEmpty)
        let move = try! #require(files.moved.first)
        #expect(move.oldPath == "Documents/chat-index.sqlite")
        #expect(move.newPath == "Library/Application Support/Search/chat-index.sqlite")
        #expect(move.oldLocation == .documents && move.newLocation == .applicationSupport)
        #expect(move.evidence == .sameNameAndSize)
    }

    @Test("a renamed file (same size, kind and modification time) is a move")
    func movedByRename() {
        let old = DiffSnapshots.make([F(path: "tmp/upload-1.jpg", bytes: 41_000, modified: 1_749_000_000, kind: .jpeg)])
        let new = DiffSnapshots.make([
            F(path: "Library/Application Support/Media/4F2A.jpg", bytes: 41_000, modified: 1_749_000_000, kind: .jpeg)
        ])
        let move = try! #require(ReportDiff.compute(old: old, new: new).files.moved.first)
        #expect(move.evidence == .sameSizeAndModified)
    }

    @Test("ambiguous pairs stay added and removed: two candidates with one name and size")
    func ambiguousPairsAreNotMoves() {
        let old = DiffSnapshots.make([
            F(path: "x/1/thumb.jpg", bytes: 500, kind: .jpeg),
            F(path: "x/2/thumb.jpg", bytes: 500, modified: 1, kind: .jpeg),
        ])
        let new = DiffSnapshots.make([
            F(path: "y/1/thumb.jpg", bytes: 500, modified: 7, kind: .jpeg),
            F(path: "y/2/thumb.jpg", bytes: 500, modified: 8, kind: .jpeg),
        ])
        let files = ReportDiff.compute(old: old, new: new).files
        #expect(files.moved.isEmpty)
        #expect(files.added.count == 2 && files.removed.count == 2)
    }

    @Test("empty files never pair, whatever their names")
    func emptyFilesDoNotPair() {
        let old = DiffSnapshots.make([F(path: "a/.lock", bytes: 0)])
        let new = DiffSnapshots.make([F(path: "b/.lock", bytes: 0)])
        let files = ReportDiff.compute(old: old, new: new).files
        #expect(files.moved.isEmpty && files.added.count == 1 && files.removed.count == 1)
    }

    @Test("a copy at a new place while the original stays is called out as left behind")
    func leftBehindCopy() {
        let model = F(path: "Documents/model.bin", bytes: 300_000, kind: .unknown, location: .documents)
        let old = DiffSnapshots.make([model])
        let new = DiffSnapshots.make([
            model, F(path: "Library/Application Support/Models/model.bin", bytes: 300_000, modified: 1_760_000_000),
        ])
        let files = ReportDiff.compute(old: old, new: new).files
        #expect(files.added.isEmpty)
        let copy = try! #require(files.leftBehind.first)
        #expect(copy.oldPath == "Documents/model.bin")
        #expect(copy.newPath == "Library/Application Support/Models/model.bin")
    }

    @Test("reports listing files out of byte order still join correctly")
    func unsortedInputJoins() {
        var table = EntryTable()
        for path in ["b", "a", "c"] {
            table.append(
                path: Array(path.utf8), apparentBytes: 10, allocatedBytes: 4096, modified: 0, kind: .unknown,
                location: .documents)
        }
        let sorted = DiffSnapshots.make([F(path: "a", bytes: 10), F(path: "b", bytes: 10), F(path: "c", bytes: 10)])
        let shuffled = ReportSnapshot(
            provenance: sorted.provenance, totals: sorted.totals, files: table, directories: EntryTable(), groups: [:],
            budgets: [], findings: [])
        let files = ReportDiff.compute(old: sorted, new: shuffled).files
        #expect(files.added.isEmpty && files.removed.isEmpty && files.changed.isEmpty)
    }

    @Test(
        "a report that lists a path twice joins on its first row: the path is neither kept and removed nor kept and added"
    )
    func repeatedPathsJoinOnce() {
        func table(_ rows: [(String, Int64)]) -> EntryTable {
            var table = EntryTable()
            for (path, bytes) in rows {
                table.append(
                    path: Array(path.utf8), apparentBytes: bytes, allocatedBytes: 4096, modified: 0, kind: .unknown,
                    location: .documents)
            }
            return table
        }
        let base = DiffSnapshots.make([])
        func snapshot(_ files: EntryTable) -> ReportSnapshot {
            ReportSnapshot(
                provenance: base.provenance, totals: base.totals, files: files, directories: files, groups: [:],
                budgets: [], findings: [])
        }
        let once = snapshot(table([("a", 10), ("b", 20)]))
        // Sorted with a repeat, and shuffled with a repeat (the sort must keep the first row listed).
        for twice in [table([("a", 10), ("a", 99), ("b", 20)]), table([("b", 20), ("a", 10), ("a", 99)])] {
            for diff in [
                ReportDiff.compute(old: once, new: snapshot(twice)),
                ReportDiff.compute(old: snapshot(twice), new: once),
            ] {
                #expect(diff.files.added.isEmpty && diff.files.removed.isEmpty && diff.files.changed.isEmpty)
                #expect(diff.files.moved.isEmpty && diff.files.leftBehind.isEmpty)
                #expect(diff.directories.shown.isEmpty && diff.directories.othersCount == 0)
            }
        }
    }

    @Test("an added file is no left-behind copy when removed files match it too: which one it came from is unknown")
    func leftBehindNeedsOneCandidate() {
        let kept = F(path: "Documents/x.bin", bytes: 300_000)
        let old = DiffSnapshots.make([
            kept, F(path: "a/x.bin", bytes: 300_000, modified: 1), F(path: "b/x.bin", bytes: 300_000, modified: 2),
        ])
        let new = DiffSnapshots.make([kept, F(path: "c/x.bin", bytes: 300_000, modified: 3)])
        let files = ReportDiff.compute(old: old, new: new).files
        #expect(files.leftBehind.isEmpty)
        #expect(files.added.map(\.id) == ["c/x.bin"])
        #expect(files.removed.map(\.id) == ["a/x.bin", "b/x.bin"])
    }

    @Test("extreme figures do not trap and do not wrap: deltas stop at the limits")
    func extremeFileCounts() {
        let base = DiffSnapshots.make([])
        func snapshot(files: Int) -> ReportSnapshot {
            let totals = ReportSnapshot.Totals(
                onDisk: SizeTotal(files: files, apparentBytes: 0, allocatedBytes: 0), byLocation: [:],
                documentsAndData: .zero, purgeable: .zero, backup: [:])
            return ReportSnapshot(
                provenance: base.provenance, totals: totals, files: EntryTable(), directories: EntryTable(),
                groups: [:], budgets: [], findings: [])
        }
        let diff = ReportDiff.compute(old: snapshot(files: .min), new: snapshot(files: 5))
        #expect(diff.totals[0].filesDelta == .max)
        #expect(ReportDiff.compute(old: snapshot(files: .max), new: snapshot(files: -2)).totals[0].filesDelta == .min)
    }

    /// Issue 10, F2: a report claiming Int64.min bytes made `new - old` wrap to a large shrinkage, so a
    /// growth gate passed. The reader refuses negative sizes; the delta saturates whatever it is given.
    @Test("a delta against Int64.min saturates to growth, and the growth gate trips")
    func deltaAgainstTheMinimumSaturates() throws {
        let base = DiffSnapshots.make([])
        func snapshot(allocated: Int64) -> ReportSnapshot {
            let size = SizeTotal(files: 1, apparentBytes: allocated, allocatedBytes: allocated)
            let totals = ReportSnapshot.Totals(
                onDisk: size, byLocation: [.documents: size], documentsAndData: size, purgeable: .zero, backup: [:])
            return ReportSnapshot(
                provenance: base.provenance, totals: totals, files: EntryTable(), directories: EntryTable(),
                groups: [:], budgets: [], findings: [])
        }
        let diff = ReportDiff.compute(old: snapshot(allocated: .min), new: snapshot(allocated: 1_000))
        #expect(diff.totals[0].allocatedDelta == .max)
        #expect(diff.totals[0].apparentDelta == .max)
        #expect(diff.locations.first { $0.id == "documents" }?.allocatedDelta == .max)
        #expect(try GrowthGate.parse("10%").evaluate(diff).tripped)
        #expect(try GrowthGate.parse("documents:50MB").evaluate(diff).tripped)
    }

    @Test("directories ranked by absolute change, the tail counted as others, the root left out")
    func directoriesRanked() {
        let old = DiffSnapshots.make([], directories: [("", 1000), ("a", 100), ("b", 5000), ("c", 10), ("d", 7)])
        let new = DiffSnapshots.make([], directories: [("", 9000), ("a", 900), ("b", 1000), ("c", 10), ("e", 50)])
        let ranked = ReportDiff.compute(old: old, new: new, options: DiffOptions(directoryLimit: 2)).directories
        #expect(ranked.shown.map(\.id) == ["b", "a"])
        #expect(ranked.othersCount == 2)  // d removed, e added; c unchanged is not listed
        #expect(ranked.othersAllocatedDelta == 50 - 7)
    }

    @Test("findings matched by fingerprint: new, resolved, unchanged")
    func findingsByFingerprint() {
        let kept = DiffSnapshots.finding("tmp-leftovers", "tmp/x")
        let old = DiffSnapshots.make(
            [], findings: [kept, DiffSnapshots.finding("documents-hidden-data", "Documents/debug.log")])
        let new = DiffSnapshots.make(
            [],
            findings: [
                kept, DiffSnapshots.finding("sqlite-sidecar", "a.sqlite-wal", .warning),
                DiffSnapshots.finding("symlink-escape", "l", .error),
            ])
        let findings = ReportDiff.compute(old: old, new: new).findings
        #expect(findings.new.map(\.rule) == ["symlink-escape", "sqlite-sidecar"])
        #expect(findings.resolved.map(\.path) == ["Documents/debug.log"])
        #expect(findings.unchanged == 1)
    }

    @Test("groups and budgets compared member by member and scope by scope")
    func groupsAndBudgets() {
        let member = { (id: String, bytes: Int64) in
            ReportSnapshot.GroupMember(
                id: id, path: "Chats/\(id)", size: SizeTotal(files: 1, apparentBytes: bytes, allocatedBytes: bytes))
        }
        let old = DiffSnapshots.make(
            [], groups: ["chats": [member("c1", 100), member("c2", 5000)]],
            budgets: [.init(scope: "total", unit: "allocatedBytes", limit: 10, actual: 5, exceeded: false)])
        let new = DiffSnapshots.make(
            [], groups: ["chats": [member("c2", 9000), member("c3", 10)]],
            budgets: [
                .init(scope: "total", unit: "allocatedBytes", limit: 10, actual: 12, exceeded: true),
                .init(scope: "files", unit: "files", limit: 3, actual: 1, exceeded: false),
            ])
        let diff = ReportDiff.compute(old: old, new: new)
        #expect(diff.groups.map(\.name) == ["chats"])
        #expect(diff.groups[0].members.map(\.id) == ["c2", "c1", "c3"])
        #expect(diff.groups[0].members[1].new == nil)
        #expect(diff.budgets.map(\.scope) == ["files", "total"])
        #expect(diff.budgets[0].old == nil && diff.budgets[1].new?.exceeded == true)
    }

    @Test("every location has a row, a TOTAL (onDisk) and the other totals")
    func locationAndTotalRows() {
        let old = DiffSnapshots.make([F(path: "Library/Caches/x", bytes: 8192, location: .caches)])
        let new = DiffSnapshots.make([
            F(path: "Library/Caches/x", bytes: 16_384, location: .caches),
            F(path: "Documents/y", bytes: 1, location: .documents),
        ])
        let diff = ReportDiff.compute(old: old, new: new)
        #expect(diff.locations.map(\.id) == Location.allCases.map(\.rawValue))
        #expect(diff.locations.first { $0.id == "caches" }?.allocatedDelta == 8192)
        #expect(diff.locations.first { $0.id == "documents" }?.filesDelta == 1)
        #expect(
            diff.totals.map(\.id) == [
                "onDisk", "documentsAndData", "purgeable", "backup.included", "backup.excluded",
                "backup.excludedBySystem", "backup.unknown",
            ])
        #expect(diff.totals[0].allocatedDelta == 12_288)
    }
}
