import Foundation
import StocktakeFiles

/// A streaming JSON writer: bytes go to a sink in large chunks, so a million-file report never sits in
/// memory. Writers name each member in one call (`field`, `object`, `array`); keys come sorted (the contract).
public final class JSONStream {
    // Unchecked: only this object's own methods touch these, one at a time; the runtime checks cost ~20%.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private let sink: ([UInt8]) throws -> Void
    @exclusivity(unchecked) private var levels: [Level] = []
    private typealias Level = (first: Bool, compact: Bool, lastKey: String?)
    private static let chunkSize = 1 << 20

    public init(sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    // MARK: Containers

    /// Starts an object; `compact` keeps it on one line (used for the rows of large arrays).
    public func beginObject(compact: Bool = false) throws { try begin(UInt8(ascii: "{"), compact: compact) }

    public func endObject() throws { try end(UInt8(ascii: "}")) }

    public func beginArray(compact: Bool = false) throws { try begin(UInt8(ascii: "["), compact: compact) }

    public func endArray() throws { try end(UInt8(ascii: "]")) }

    /// A member's name. Keys are written in the order given: the caller sorts them (checked in debug builds).
    public func key(_ key: some JSONKey) throws {
        let name = key.jsonKey
        let level = levels.count - 1
        #if DEBUG
            precondition(
                levels[level].lastKey.map { $0.utf8.lexicographicallyPrecedes(name.utf8) } ?? true,
                "JSON keys must be written sorted: \(name)")
            levels[level].lastKey = name
        #endif
        separate()
        appendQuoted(name)
        buffer.append(UInt8(ascii: ":"))
        if !levels[level].compact { buffer.append(UInt8(ascii: " ")) }
        levels[level].first = false
        pendingValueAfterKey = true
    }

    // MARK: Fields: one call per member

    public func field(_ key: some JSONKey, _ value: some JSONWritable) throws {
        try self.key(key)
        try value.write(into: self)
    }

    /// A member left out when `value` is nil (where a nil one is written as null, pass the optional itself).
    public func field(_ key: some JSONKey, ifPresent value: (some JSONWritable)?) throws {
        if let value { try field(key, value) }
    }

    /// A member whose value `value` writes (a shared object, a value of several kinds).
    public func field(_ key: some JSONKey, _ value: () throws -> Void) throws {
        try self.key(key)
        try value()
    }

    /// A member whose value is known later (`isReady` says when; `value` then writes it, waiting if it must). What
    /// precedes it goes to the sink at once; what follows waits in an unnamed temporary file (memory stays one chunk)
    /// until a chunk finds the value ready, or `finish`; the sink gets the bytes of the value written in its place.
    public func field(
        _ key: some JSONKey, later isReady: @escaping () -> Bool, _ value: @escaping (JSONStream) throws -> Void
    ) throws {
        precondition(later == nil, "one member known later at a time")
        try self.key(key)
        guard !isReady() else { return try value(self) }
        pendingValueAfterKey = false
        try flush()
        guard let file = tmpfile() else { throw HoldingFailed(reason: "no temporary file: \(SystemError.currentText)") }
        later = (levels, isReady, value, file)
    }

    /// What follows a member known later could not be held in a temporary file, or read back from it.
    public struct HoldingFailed: Error, CustomStringConvertible {
        let reason: String
        public var description: String { "the rest of the file could not wait in a temporary file: \(reason)" }
    }

    /// The member `field(_:later:_:)` left, and the file holding what follows it.
    @exclusivity(unchecked) private var later:
        (levels: [Level], isReady: () -> Bool, value: (JSONStream) throws -> Void, file: UnsafeMutablePointer<FILE>)?

    deinit { if let later { fclose(later.file) } }

    /// Hands bytes to the sink, or to the file while a member known later waits.
    private func emit(_ bytes: [UInt8]) throws {
        guard let waiting = later else { return try sink(bytes) }
        guard waiting.isReady() else {
            guard fwrite(bytes, 1, bytes.count, waiting.file) == bytes.count else {
                throw HoldingFailed(reason: SystemError.currentText)
            }
            return
        }
        try writeLater()
        try sink(bytes)
    }

    /// Writes the member known later (waiting for it), then what waited after it.
    private func writeLater() throws {
        guard let waiting = later else { return }
        later = nil
        defer { fclose(waiting.file) }
        let member = JSONStream(sink: sink)
        member.levels = waiting.levels
        member.pendingValueAfterKey = true
        try waiting.value(member)
        try member.flush()
        rewind(waiting.file)
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while case let count = fread(&chunk, 1, chunk.count, waiting.file), count > 0 {
            try sink(Array(chunk[..<count]))
        }
        guard ferror(waiting.file) == 0 else { throw HoldingFailed(reason: SystemError.currentText) }
    }

    /// An object member; `compact` keeps it on one line.
    public func object(_ key: some JSONKey, compact: Bool = false, _ members: () throws -> Void) throws {
        try field(key) { try object(compact: compact, members) }
    }

    public func array(_ key: some JSONKey, compact: Bool = false, _ elements: () throws -> Void) throws {
        try field(key) { try array(compact: compact, elements) }
    }

    public func object(compact: Bool = false, _ members: () throws -> Void) throws {
        try beginObject(compact: compact)
        try members()
        try endObject()
    }

    public func array(compact: Bool = false, _ elements: () throws -> Void) throws {
        try beginArray(compact: compact)
        try elements()
        try endArray()
    }

    // MARK: Scalars

    public func string(_ value: String) throws {
        try beginValue()
        appendQuoted(value)
    }

    /// A string from raw bytes that are valid UTF-8 (check with `PathText.isValidUTF8` first). Concrete, not
    /// generic: it is called once per row from other modules, where a generic would run unspecialized.
    public func string(utf8 bytes: [UInt8]) throws {
        try beginValue()
        bytes.withUnsafeBufferPointer { JSONString.appendQuoted($0, to: &buffer) }
    }

    public func int(_ value: Int64) throws {
        try beginValue()
        JSONDigits.append(value, to: &buffer)
    }

    public func int(_ value: Int) throws { try int(Int64(value)) }

    public func double(_ value: Double) throws { try literal(value.isFinite ? "\(value)" : "null") }

    public func bool(_ value: Bool) throws { try literal(value ? "true" : "false") }

    public func null() throws { try literal("null") }

    /// A value written as it is: a number, `true`, `false`, `null`.
    private func literal(_ text: String) throws {
        try beginValue()
        buffer.append(contentsOf: text.utf8)
    }

    /// Writes what is left; call once at the end.
    public func finish() throws {
        precondition(levels.isEmpty, "unbalanced JSON containers")
        buffer.append(UInt8(ascii: "\n"))
        try flush()
        try writeLater()
    }

    // MARK: Pieces rendered elsewhere

    /// What separates two elements of the array being written (comma, then newline and indent unless compact).
    public var elementSeparator: [UInt8] {
        var separator = [UInt8(ascii: ",")]
        if let level = levels.last, !level.compact {
            separator.append(UInt8(ascii: "\n"))
            separator.append(contentsOf: [UInt8](repeating: 0x20, count: 2 * levels.count))
        }
        return separator
    }

    /// Appends array elements rendered by other streams (on other threads), already joined with
    /// `elementSeparator`. The output is byte-identical to writing them here one by one.
    public func preformattedElements(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try beginValue()
        guard bytes.count >= Self.chunkSize else {
            buffer.append(contentsOf: bytes)
            return
        }
        // A large piece goes to the sink as it is, after what is buffered: one copy fewer per row.
        try flush()
        try emit(bytes)
    }

    /// Hands what is buffered to the sink (without the final newline `finish` adds).
    public func flush() throws {
        try emit(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Layout

    private var pendingValueAfterKey = false

    private func beginValue() throws {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
        } else if !levels.isEmpty {
            separate()
            levels[levels.count - 1].first = false
        }
        if buffer.count >= Self.chunkSize { try flush() }
    }

    private func separate() {
        guard let level = levels.last else { return }
        if !level.first { buffer.append(UInt8(ascii: ",")) }
        if !level.compact { newline(depth: levels.count) }
    }

    private func begin(_ opener: UInt8, compact: Bool) throws {
        try beginValue()
        buffer.append(opener)
        levels.append((true, compact || (levels.last?.compact ?? false), nil))
    }

    private func end(_ closer: UInt8) throws {
        let level = levels.removeLast()
        if !level.compact && !level.first { newline(depth: levels.count) }
        buffer.append(closer)
    }

    private func newline(depth: Int) {
        buffer.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { buffer.append(contentsOf: [0x20, 0x20]) }
    }

    private func appendQuoted(_ text: String) {
        var text = text
        text.withUTF8 { JSONString.appendQuoted($0, to: &buffer) }
    }
}

/// A member's name: a literal, a name from data, or a case of a key enum (which declares the conformance).
public protocol JSONKey { var jsonKey: String { get } }

extension String: JSONKey { public var jsonKey: String { self } }

extension JSONKey where Self: RawRepresentable, RawValue == String { public var jsonKey: String { rawValue } }

/// A value `field` writes in one call: strings, numbers, booleans, an optional (nil is null), an array of them.
public protocol JSONWritable { func write(into json: JSONStream) throws }

extension String: JSONWritable { public func write(into json: JSONStream) throws { try json.string(self) } }

extension Int: JSONWritable { public func write(into json: JSONStream) throws { try json.int(self) } }

extension Int64: JSONWritable { public func write(into json: JSONStream) throws { try json.int(self) } }

extension Double: JSONWritable { public func write(into json: JSONStream) throws { try json.double(self) } }

extension Bool: JSONWritable { public func write(into json: JSONStream) throws { try json.bool(self) } }

extension Optional: JSONWritable where Wrapped: JSONWritable {
    public func write(into json: JSONStream) throws {
        if let self { try self.write(into: json) } else { try json.null() }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    public func write(into json: JSONStream) throws {
        try json.array { for element in self { try element.write(into: json) } }
    }
}

/// The one JSON string escaper of every JSON file written here by hand (report.json and its rows, diff.json, the
/// history, the ncdu export): quote and backslash escaped, newline, CR and tab as `\n`, `\r`, `\t`, other control
/// bytes and DEL as `\u00XX`, every other byte copied as it is. The reports pass valid UTF-8 (names that are not go
/// in as base64, see `EntryJSON`); the ncdu export passes raw name bytes on purpose, since ncdu reads names as
/// bytes. Inlinable because the row writer calls it across the module line for several strings of every row.
public enum JSONString {
    @inlinable public static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        // Most names need no escaping: copy them in one go.
        if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            buffer.append(contentsOf: bytes)
            buffer.append(UInt8(ascii: "\""))
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                buffer.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigit(byte >> 4), hexDigit(byte & 15),
                ])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// A nibble as a lowercase hex digit.
    @inlinable static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
}

/// An integer as JSON digits, straight into a byte buffer: `String(value)` allocates, and a report writes
/// millions of integers. Shared by `JSONStream` and the report's row writer; inlinable because the row writer
/// calls it across the module line once per number.
public enum JSONDigits {
    @inlinable public static func append(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        if rest < 10 {
            buffer.append(UInt8(ascii: "0") &+ UInt8(rest))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            while rest > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(rest % 10)
                rest /= 10
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
