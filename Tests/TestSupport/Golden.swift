import Foundation
import Testing

/// Committed files a test renders byte for byte. Normally it compares and, on a difference, fails naming the
/// first line that differs. With `STOCKTAKE_RECORD_GOLDEN=1` it writes what was rendered instead, and still
/// fails: a recording run never passes, so the new file is reviewed in the diff before a plain run turns green.
package enum Golden {
    package static let recording = ProcessInfo.processInfo.environment["STOCKTAKE_RECORD_GOLDEN"] == "1"

    /// The hint every mismatch ends with.
    package static let recordHint = "after checking the change, STOCKTAKE_RECORD_GOLDEN=1 re-records it"

    /// `rendered` against the whole file at `path` (absolute, or relative to the repository).
    package static func check(
        _ rendered: String, against path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try check(Data(rendered.utf8), against: path, sourceLocation: sourceLocation)
    }

    package static func check(_ rendered: Data, against path: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let path = absolute(path)
        if recording {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try rendered.write(to: URL(fileURLWithPath: path), options: .atomic)
            Issue.record(
                "recorded \(shown(path)); review its diff, then run without STOCKTAKE_RECORD_GOLDEN",
                sourceLocation: sourceLocation)
            return
        }
        guard let golden = FileManager.default.contents(atPath: path) else {
            Issue.record(
                "\(shown(path)) is missing; STOCKTAKE_RECORD_GOLDEN=1 records it", sourceLocation: sourceLocation)
            return
        }
        if let difference = firstDifference(rendered: rendered, golden: golden) {
            Issue.record(
                "\(shown(path)) differs from what was rendered; \(recordHint).\n\(difference)",
                sourceLocation: sourceLocation)
        }
    }

    /// `rendered` against the lines between the marker lines `begin` and `end` of the text file at `path`
    /// (a generated table inside a hand-written document); recording rewrites only those lines.
    package static func checkBlock(
        _ rendered: String, in path: String, between begin: String, and end: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = absolute(path)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard let opening = lines.firstIndex(of: Substring(begin)),
            let closing = lines[(opening + 1)...].firstIndex(of: Substring(end))
        else {
            Issue.record(
                "\(shown(path)) has no line \(begin) followed later by a line \(end)", sourceLocation: sourceLocation)
            return
        }
        let block = rendered.hasSuffix("\n") ? String(rendered.dropLast()) : rendered
        let committed = lines[(opening + 1)..<closing].joined(separator: "\n")
        if recording {
            let rewritten = lines[...opening] + (block.isEmpty ? [] : [Substring(block)]) + lines[closing...]
            try rewritten.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record(
                "recorded the block of \(shown(path)); review its diff, then run without STOCKTAKE_RECORD_GOLDEN",
                sourceLocation: sourceLocation)
            return
        }
        if let difference = firstDifference(rendered: Data(block.utf8), golden: Data(committed.utf8)) {
            Issue.record(
                "the block between \(begin) and \(end) in \(shown(path)) differs from what was rendered; \(recordHint).\n\(difference)",
                sourceLocation: sourceLocation)
        }
    }

    /// Where two texts part: the first differing line (1-based), both versions of it, and the sizes. Nil when equal.
    package static func firstDifference(rendered: Data, golden: Data) -> String? {
        guard rendered != golden else { return nil }
        let renderedLines = rendered.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let goldenLines = golden.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let index =
            zip(renderedLines, goldenLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(renderedLines.count, goldenLines.count)
        func line(_ lines: [Data]) -> String {
            guard index < lines.count else { return "(no such line)" }
            let text = String(decoding: lines[index], as: UTF8.self)
            return text.count > 300 ? String(text.prefix(300)) + "…" : text
        }
        return """
            first difference at line \(index + 1) (rendered \(renderedLines.count) lines, \(rendered.count) bytes; committed \(goldenLines.count) lines, \
            \(golden.count) bytes)
              committed: \(line(goldenLines))
              rendered:  \(line(renderedLines))
            """
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : Repository.path(path)
    }

    /// A path inside the repository shown relative to it.
    private static func shown(_ path: String) -> String {
        path.hasPrefix(Repository.root + "/") ? String(path.dropFirst(Repository.root.count + 1)) : path
    }
}
