import Foundation
import StocktakeModel
import StocktakeRendering

/// Writes `report.ncdu.json`, ncdu's JSON export (format 1.2: `[1,2,{"progname":…},[{root},{file},[{dir},…]]]`), so
/// `ncdu -f report.ncdu.json` browses the container as ncdu would have scanned it. Streamed in path order, one line
/// per entry. Names are their raw bytes, as ncdu's own exporter writes them, so names that are not UTF-8 round-trip.
/// `asize` is apparent bytes, `dsize` allocated (left out when zero, as ncdu does). The inventory keeps no inode
/// numbers, so a hard link gets a synthetic `ino` unique to each name, and only the first name counted carries the
/// bytes: ncdu's totals equal the inventory's (hard links once, like `du`).
public struct NCDUExportWriter: Sendable {
    public init() {}

    public func write(_ report: Report, to sink: @escaping ([UInt8]) throws -> Void) throws {
        let inventory = report.inventory
        var out = ChunkedOutput(sink: sink)
        let timestamp = report.generatedAt.timeIntervalSince1970
        let seconds = timestamp.isFinite && timestamp > 0 && timestamp < 1e15 ? Int64(timestamp) : 0
        out.append("[1,2,{\"progname\":")
        out.appendQuoted(Array(report.tool.name.utf8))
        out.append(",\"progver\":")
        out.appendQuoted(Array(report.tool.version.utf8))
        out.append(",\"timestamp\":\(seconds)}")
        guard !inventory.entries.isEmpty else {
            out.append(",\n[{\"name\":")
            out.appendQuoted(Array(report.container.rootPath.utf8))
            out.append("}]]\n")
            return try out.finish()
        }
        // Directories whose array is still open, innermost last.
        var open: [Int32] = []
        try inventory.forEachEntryInPathOrder { index, entry in
            if index != inventory.root {
                while let last = open.last, last != entry.parent {
                    out.append("]")
                    open.removeLast()
                }
                // Path order visits a parent before its children; anything else is not a tree to export.
                guard !open.isEmpty else { return }
            }
            out.append(",\n")
            if entry.isDirectory {
                out.append("[")
                open.append(index)
            }
            let name = index == inventory.root ? Array(report.container.rootPath.utf8) : Array(inventory.name(index))
            info(entry, index: index, name: name, &out)
            try out.flushIfFull()
        }
        for _ in open { out.append("]") }
        out.append("]\n")
        try out.finish()
    }

    private func info(_ entry: Entry, index: Int32, name: [UInt8], _ out: inout ChunkedOutput) {
        out.append("{\"name\":")
        out.appendQuoted(name)
        let counted = entry.countsBytes
        if counted && entry.apparentBytes > 0 { out.append(",\"asize\":\(entry.apparentBytes)") }
        if counted && entry.allocatedBytes > 0 { out.append(",\"dsize\":\(entry.allocatedBytes)") }
        if !entry.isDirectory && entry.flags.contains(.hardLinked) {
            // Synthetic and unique per name (index + 1, never 0): see the type's comment.
            out.append(",\"ino\":\(Int64(index) + 1),\"hlnkc\":true,\"nlink\":2")
        }
        if entry.type != .file && entry.type != .directory { out.append(",\"notreg\":true") }
        if entry.isDirectory && entry.flags.contains(.unreadable) { out.append(",\"read_error\":true") }
        out.append("}")
    }
}

/// A byte buffer handed to the sink in large chunks.
private struct ChunkedOutput {
    let sink: ([UInt8]) throws -> Void
    private var buffer: [UInt8] = []
    private static let chunkSize = 1 << 20

    init(sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.chunkSize + 8192)
    }

    mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    /// A JSON string of raw name bytes, by the reports' one escaper: bytes that are not UTF-8 are copied as they
    /// are, which is what ncdu expects (it reads names as bytes, as its own exporter writes them).
    mutating func appendQuoted(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { JSONString.appendQuoted($0, to: &buffer) }
    }

    mutating func flushIfFull() throws {
        guard buffer.count >= Self.chunkSize else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func finish() throws {
        try sink(buffer)
        buffer.removeAll()
    }
}
