import Foundation
import TestSupport

@testable import StocktakeReport

/// A small report.json written by hand, piece by piece, so a test can replace, drop or garble one key.
enum HandWrittenReport {
    static let total = #"{"allocatedBytes": 8192, "apparentBytes": 5000, "files": 2}"#

    /// Top-level keys and their JSON text.
    static let pieces: [String: String] = [
        "budgets": #"[{"actual": 8192, "exceeded": true, "limit": 4096, "scope": "total", "unit": "allocatedBytes"}]"#,
        "container": """
        {"bundleIdentifier": "com.example.app", "bundleIdentifierSource": "appDataInfo", "layout": "xcappdata",
         "metadata": {"AppDataInfo.plist": {"value": {"XCExecutableVersion": "3.1"}}},
         "path": "App.xcappdata", "root": "/exports/App.xcappdata/AppData"}
        """,
        "directories": """
        [{"allocatedBytes": 4096, "apparentBytes": 4096, "files": 2, "location": "other", "modified": 5, "path": "",
          "totalAllocatedBytes": 16384, "totalApparentBytes": 13192, "type": "directory"},
         {"allocatedBytes": 4096, "apparentBytes": 4096, "files": 2, "location": "documents", "modified": 6, "path": "Documents",
          "totalAllocatedBytes": 12288, "totalApparentBytes": 9096, "type": "directory"}]
        """,
        "files": """
        [{"allocatedBytes": 4096, "apparentBytes": 1000, "kind": "json", "location": "documents", "modified": 100,
          "path": "Documents/a.json", "type": "file"},
         {"allocatedBytes": 4096, "apparentBytes": 4000, "kind": "sqlite", "location": "documents", "modified": 200,
          "path": "Documents/b.sqlite", "type": "file"}]
        """,
        "findings": """
        [{"bytes": 4096, "fingerprint": "\(String(repeating: "ab", count: 32))", "fix": "Move it.", "message": "A database in Documents.",
          "path": "Documents/b.sqlite", "rule": "documents-hidden-data", "severity": "warning"}]
        """,
        "generatedAt": #""2026-11-21T02:00:00Z""#,
        "groups": """
        {"chats": {"members": [{"allocatedBytes": 4096, "apparentBytes": 1000, "files": 1, "id": "42", "path": "Documents/42"}],
                   "pattern": "Documents/{id}/**"}}
        """,
        "schemaVersion": "1",
        "tool": #"{"name": "stocktake", "version": "1.0.0"}"#,
        "totals": """
        {"backup": {"excluded": \(total), "excludedBySystem": \(total), "included": \(total), "unknown": \(total)},
         "byLocation": {"applicationSupport": \(total), "caches": \(total), "documents": \(total), "libraryOther": \(total),
                        "other": \(total), "preferences": \(total), "systemData": \(total), "tmp": \(total)},
         "directories": \(total), "documentsAndData": \(total), "onDisk": \(total), "purgeable": \(total),
         "transportArtefacts": \(total)}
        """,
    ]

    /// The document with some keys replaced (a value) or removed (nil).
    static func text(_ changes: [String: String?] = [:]) -> String {
        var keys = pieces
        for (key, value) in changes { keys[key] = value }
        let members = keys.keys.sorted().map { "  \"\($0)\": \(keys[$0]!)" }
        return "{\n" + members.joined(separator: ",\n") + "\n}\n"
    }

    /// A one-file report: `row` is the JSON text of its only `files[]` element.
    static func text(fileRow row: String) -> String { text(["files": "[\(row)]"]) }

    /// Writes `text` as report.json in a fresh folder and reads it back.
    static func read(_ text: String) throws -> ReportSnapshot {
        try read(bytes: Array(text.utf8))
    }

    static func read(bytes: [UInt8]) throws -> ReportSnapshot {
        let tree = try TemporaryTree("handwritten")
        try tree.write("report.json", bytes: bytes)
        return try ReportReader.read(path: tree.path("report.json"))
    }

    /// The reason `ReportReader` gives for `text`, or nil when it reads.
    static func failure(_ text: String) throws -> String? {
        try failure(bytes: Array(text.utf8))
    }

    static func failure(bytes: [UInt8]) throws -> String? {
        let tree = try TemporaryTree("handwritten")
        try tree.write("report.json", bytes: bytes)
        do {
            _ = try ReportReader.read(path: tree.path("report.json"))
            return nil
        } catch {
            return error.reason
        }
    }
}
