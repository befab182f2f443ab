import StocktakeModel
import StocktakePolicy
import StocktakeReport

@testable import StocktakeDiff

/// Hand-built report snapshots for diff tests: files listed as (path, bytes), the rest derived.
struct SnapshotFile {
    var path: String
    var bytes: Int64
    var modified: Int64 = 1_750_000_000
    var kind: ContentKind = .unknown
    var location: Location = .applicationSupport
}

enum DiffSnapshots {
    static func make(
        _ files: [SnapshotFile], directories: [(String, Int64)] = [], findings: [ReportSnapshot.FindingRecord] = [],
        groups: [String: [ReportSnapshot.GroupMember]] = [:], budgets: [ReportSnapshot.Budget] = [],
        generatedAt: String = "2026-11-20T02:00:00Z"
    ) -> ReportSnapshot {
        var table = EntryTable()
        var byLocation: [Location: SizeTotal] = [:]
        var onDisk = SizeTotal()
        for file in files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            let allocated = (file.bytes + 4095) / 4096 * 4096
            table.append(
                path: Array(file.path.utf8), apparentBytes: file.bytes, allocatedBytes: allocated,
                modified: file.modified, kind: file.kind, location: file.location)
            let size = SizeTotal(files: 1, apparentBytes: file.bytes, allocatedBytes: allocated)
            byLocation[file.location, default: .zero].add(size)
            onDisk.add(size)
        }
        var folders = EntryTable()
        for (path, bytes) in directories.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
            folders.append(
                path: Array(path.utf8), apparentBytes: bytes, allocatedBytes: bytes, files: 1, modified: 0,
                kind: .unknown, location: .applicationSupport)
        }
        let purgeable = [Location.caches, .tmp].reduce(into: SizeTotal()) { $0.add(byLocation[$1] ?? .zero) }
        var documentsAndData = onDisk
        documentsAndData.files -= purgeable.files
        documentsAndData.apparentBytes -= purgeable.apparentBytes
        documentsAndData.allocatedBytes -= purgeable.allocatedBytes
        return ReportSnapshot(
            provenance: .init(
                source: "report.json", schemaVersion: 1, toolName: "stocktake", toolVersion: "0.1.0",
                generatedAt: generatedAt,
                bundleIdentifier: "com.example.chat", appVersion: "14.2.0", containerPath: "ChatApp.xcappdata",
                layout: "xcappdata"),
            totals: .init(
                onDisk: onDisk, byLocation: byLocation, documentsAndData: documentsAndData, purgeable: purgeable,
                backup: [.included: documentsAndData]),
            files: table, directories: folders, groups: groups, budgets: budgets, findings: findings)
    }

    static func finding(_ rule: String, _ path: String, _ severity: Severity = .warning) -> ReportSnapshot.FindingRecord
    {
        ReportSnapshot.FindingRecord(
            rule: rule, severity: severity, path: path, message: "\(rule) at \(path)", fingerprint: "\(rule):\(path)",
            bytes: nil)
    }
}
