import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// Lets report.json's rows be written while the content pass still runs, byte-identical to a report written after it:
/// the rows come from a draft without `contentCoverage`, and its key and value are spliced in where the writer would
/// have put them, before the first top-level key after it (`deviceBackup` or `directories`, both starting with `d`;
/// the writer escapes every newline inside a string, so a newline and two spaces start a top-level key). What follows
/// the splice point waits in an unnamed temporary file until the coverage is known, then goes on unbuffered.
final class CoverageSplice {
    private let path: String
    private let content: BackgroundTask<ContentScope.Result>
    private let sink: ([UInt8]) throws -> Void
    /// The last bytes seen, while the splice point is not yet found (it may straddle two chunks).
    private var held: [UInt8] = []
    private var found = false
    private var waiting: UnsafeMutablePointer<FILE>?
    private static let marker = Array(",\n  \"d".utf8)

    init(
        _ path: String, coverage content: BackgroundTask<ContentScope.Result>, sink: @escaping ([UInt8]) throws -> Void
    ) {
        self.path = path
        self.content = content
        self.sink = sink
    }

    deinit { if let waiting { fclose(waiting) } }

    /// Takes the writer's next bytes.
    func write(_ bytes: [UInt8]) throws {
        guard !found else {
            if waiting != nil && content.isDone { try drain() }
            return try waiting == nil ? sink(bytes) : hold(bytes)
        }
        held += bytes
        guard let start = Self.find(Self.marker, in: held) else {
            // Keep only what may begin the marker.
            let keep = min(held.count, Self.marker.count - 1)
            try sink(Array(held.dropLast(keep)))
            held.removeFirst(held.count - keep)
            return
        }
        found = true
        let rest = Array(held[start...])
        try sink(Array(held[..<start]))
        held = []
        if content.isDone {
            try sink(Self.entry(content.value.coverage) + rest)
        } else {
            waiting = tmpfile()
            try hold(rest)
        }
    }

    /// Writes what still waits, once the coverage is known; call after the writer's last bytes.
    func finish() throws {
        guard found else { throw AuditError.output("cannot write \(path): no place for the content coverage") }
        if waiting != nil { try drain() }
    }

    private func hold(_ bytes: [UInt8]) throws {
        guard let waiting, fwrite(bytes, 1, bytes.count, waiting) == bytes.count else {
            throw AuditError.output(
                "cannot write \(path): its rows do not fit a temporary file: \(SystemError.currentText)")
        }
    }

    /// The coverage's entry, then what waited; bytes go straight to the sink afterwards.
    private func drain() throws {
        guard let file = waiting else { return }
        try sink(Self.entry(content.value.coverage))
        rewind(file)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { try sink(Array(chunk[..<count])) }
        guard ferror(file) == 0 else {
            throw AuditError.output("cannot write \(path): its rows do not read back: \(SystemError.currentText)")
        }
        fclose(file)
        waiting = nil
    }

    /// `,\n  "contentCoverage": {…}` as the report's writer lays it out at the top level.
    static func entry(_ coverage: ContentCoverage) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let json = JSONStream { bytes += $0 }
        try json.beginObject()
        try json.key("contentCoverage")
        try json.contentCoverage(coverage)
        try json.endObject()
        try json.finish()
        // `{` … `\n}\n`: the entry is what lies between.
        return [UInt8(ascii: ",")] + bytes[1..<(bytes.count - 3)]
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { start in
            needle.indices.allSatisfy { haystack[start + $0] == needle[$0] }
        }
    }
}
