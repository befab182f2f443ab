import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

@testable import StocktakeDiff

/// A hand-built diff of two versions of a chat app that exercises every section of every diff format:
/// growth, shrink, a location that was empty before, one that emptied, moved and left-behind files, a
/// group, a budget turning exceeded, new and resolved findings, a tripped gate, and names that attack each
/// format (HTML, a Markdown table, a terminal escape sequence) or need care (Japanese, emoji).
enum SyntheticDiff {
    static let scriptName = "Documents/<script>alert('x')</script>.jpg"
    static let pipeName = "Documents/notes | draft `v2`.txt"
    /// ESC [31m: would turn a terminal red.
    static let escapeName = "Library/Caches/log\u{1B}[31mred.txt"
    static let japaneseName = "Documents/写真/猫の写真.heic"
    static let emojiName = "Documents/📦 archive.zip"

    static let tool = ToolInfo(version: "0.1.0-test")
    /// Small, so that the goldens show the collapsed tails.
    static let options = DiffRenderOptions(limit: 3, tool: tool)

    static let gates = [
        DiffGateResult(
            gate: "applicationSupport:10%", tripped: true, message: "applicationSupport grew 25.0% (limit 10%)"),
        DiffGateResult(gate: "new findings >= error", tripped: false, message: "no new finding at error or above"),
    ]

    static func size(_ allocated: Int64, files: Int = 1, apparent: Int64? = nil) -> SizeTotal {
        SizeTotal(files: files, apparentBytes: apparent ?? allocated - allocated / 10, allocatedBytes: allocated)
    }

    static func change(_ id: String, _ old: SizeTotal?, _ new: SizeTotal?) -> SizeChange {
        SizeChange(id: id, old: old, new: new)
    }

    static func side(_ version: String, _ date: String, _ folder: String) -> ReportSnapshot.Provenance {
        ReportSnapshot.Provenance(
            source: "reports/\(folder)/report.json", schemaVersion: 1, toolName: "stocktake", toolVersion: "0.1.0",
            generatedAt: date, bundleIdentifier: "com.example.chat", appVersion: version,
            containerPath: "exports/Chat \(version).xcappdata", layout: "xcappdata")
    }

    static func make() -> ReportDiff {
        let locations = [
            change("documents", size(4_000_000, files: 40), size(4_600_000, files: 46)),
            change("applicationSupport", size(8_000_000, files: 120), size(10_000_000, files: 130)),
            change("caches", size(3_000_000, files: 300), size(2_500_000, files: 280)),
            change("tmp", size(200_000, files: 4), size(0, files: 0, apparent: 0)),
            change("preferences", size(8_192, files: 2, apparent: 5_000), size(8_192, files: 2, apparent: 5_000)),
            change("libraryOther", size(40_960, files: 3), size(45_056, files: 4)),
            change("systemData", nil, size(12_288, files: 3)),
            change("other", SizeTotal.zero, SizeTotal.zero),
        ]
        let totals = [
            change("onDisk", size(15_500_000, files: 520), size(17_420_000, files: 520)),
            change("documentsAndData", size(12_049_152, files: 165), size(14_665_536, files: 185)),
            change("purgeable", size(3_200_000, files: 304), size(2_500_000, files: 280)),
            change("backup.included", size(0, files: 0), size(0, files: 0)),
            change("backup.excluded", size(1_000_000, files: 10), size(3_000_000, files: 12)),
            change("backup.excludedBySystem", size(3_200_000, files: 304), size(2_512_288, files: 283)),
            change("backup.unknown", size(11_049_152, files: 155), size(11_665_536, files: 173)),
        ]
        let directories = ListHead(
            shown: [
                change("Library/Application Support", size(8_000_000, files: 120), size(10_000_000, files: 130)),
                change("Library/Application Support/Media", size(2_000_000, files: 20), size(3_500_000, files: 28)),
                change("Documents", size(4_000_000, files: 40), size(4_600_000, files: 46)),
                change("Library/Caches", size(3_000_000, files: 300), size(2_500_000, files: 280)),
                change("Documents/写真", nil, size(400_000, files: 2)),
            ],
            othersCount: 4, othersAllocatedDelta: -212_992)
        return ReportDiff(
            old: side("1.4.0", "2025-03-01T09:00:00Z", "1.4.0"), new: side("1.5.0", "2025-04-01T09:00:00Z", "1.5.0"),
            totals: totals, locations: locations, directories: directories, files: files(), groups: groups(),
            budgets: budgets(), findings: findings())
    }

    static func files() -> FileChanges {
        FileChanges(
            added: [
                change("Library/Application Support/Media/video-1.mp4", nil, size(1_200_000)),
                change(japaneseName, nil, size(400_000)),
                change(scriptName, nil, size(250_000)),
                change("Library/Caches/images/a1.jpg", nil, size(120_000)),
                change("Library/Caches/images/a2.jpg", nil, size(4_096, apparent: 1_200)),
            ],
            removed: [
                change("tmp/upload-7F3A.part", size(200_000), nil),
                change(emojiName, size(120_000), nil),
                change(escapeName, size(40_960), nil),
            ],
            changed: [
                change("Library/Application Support/chat.sqlite", size(3_000_000), size(3_600_000)),
                change("Library/Caches/thumbnails.db", size(1_000_000), size(600_000)),
                change(pipeName, size(8_192, apparent: 5_000), size(8_192, apparent: 5_100)),
            ],
            moved: [
                FileMove(
                    oldPath: "Documents/avatar.png", newPath: "Library/Application Support/avatar.png",
                    oldLocation: .documents,
                    newLocation: .applicationSupport, old: size(65_536), new: size(65_536), evidence: .sameNameAndSize)
            ],
            leftBehind: [
                FileMove(
                    oldPath: "Documents/Attachments/photo-1.jpg",
                    newPath: "Library/Application Support/Attachments/photo-1.jpg",
                    oldLocation: .documents, newLocation: .applicationSupport, old: size(300_000), new: size(300_000),
                    evidence: .sameNameAndSize)
            ])
    }

    static func groups() -> [GroupChange] {
        [
            GroupChange(
                name: "chats",
                members: [
                    change("family", size(1_000_000, files: 10), size(2_200_000, files: 16)),
                    change("work | team", size(500_000, files: 4), size(300_000, files: 3)),
                    change("<b>bold</b>", nil, size(100_000, files: 1)),
                    change("友達", size(80_000, files: 1), size(80_000, files: 1)),
                    change("old-chat", size(60_000, files: 2), nil),
                ])
        ]
    }

    static func budgets() -> [BudgetChange] {
        [
            BudgetChange(
                scope: "applicationSupport",
                old: .init(
                    scope: "applicationSupport", unit: "allocatedBytes", limit: 9_000_000, actual: 8_000_000,
                    exceeded: false),
                new: .init(
                    scope: "applicationSupport", unit: "allocatedBytes", limit: 9_000_000, actual: 10_000_000,
                    exceeded: true)),
            BudgetChange(
                scope: "tmp", old: .init(scope: "tmp", unit: "files", limit: 10, actual: 4, exceeded: false),
                new: .init(scope: "tmp", unit: "files", limit: 10, actual: 0, exceeded: false)),
        ]
    }

    static func findings() -> FindingChanges {
        FindingChanges(
            new: [
                .init(
                    rule: "excluded-user-document", severity: .warning, path: scriptName,
                    message: "This document (250 KB) is excluded from backup | `pwned`", fingerprint: "fp-new-1",
                    bytes: 250_000),
                .init(
                    rule: "library-root-file", severity: .note, path: escapeName,
                    message: "A file \u{1B}]0;title\u{7} here",
                    fingerprint: "fp-new-2", bytes: nil),
            ],
            resolved: [
                .init(
                    rule: "tmp-leftovers", severity: .warning, path: "tmp/upload-7F3A.part",
                    message: "Left in tmp for 3 days",
                    fingerprint: "fp-old-1", bytes: 200_000)
            ],
            unchanged: 5)
    }
}

extension SyntheticDiff {
    /// The synthetic diff with `count` added files (largest first) instead of its own, and no other file changes.
    static func withAddedFiles(_ count: Int) -> ReportDiff {
        let added = (0..<count).map { change("Documents/many/file-\($0).bin", nil, size(Int64(count - $0) * 10_000)) }
        return replacingFiles(FileChanges(added: added, removed: [], changed: [], moved: [], leftBehind: []))
    }

    static func replacingFiles(_ files: FileChanges, in base: ReportDiff = make()) -> ReportDiff {
        ReportDiff(
            old: base.old, new: base.new, totals: base.totals, locations: base.locations, directories: base.directories,
            files: files, groups: base.groups, budgets: base.budgets, findings: base.findings)
    }

    static func render(
        _ format: DiffFormat, _ diff: ReportDiff = make(), limit: Int = 3, gates: [DiffGateResult] = gates
    ) throws -> String {
        String(
            decoding: try DiffWriter.render(
                diff, gates: gates, format: format, options: DiffRenderOptions(limit: limit, tool: tool)), as: UTF8.self
        )
    }
}
