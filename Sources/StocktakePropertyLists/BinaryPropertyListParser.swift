import StocktakeModel

/// Decodes a binary property list without trusting any offset, count or size in it: the header, the objects (each
/// checked to lie before the offset table), the table and a 32-byte trailer of sizes, count, top and table offset.
struct BinaryPropertyListParser {
    static let header: [UInt8] = Array("bplist00".utf8)
    private static let trailerSize = 32

    private let bytes: [UInt8]
    private let offsetIntSize: Int
    private let objectRefSize: Int
    private let objectCount: Int
    private let topObject: Int
    /// Objects live in `header.count ..< offsetTableOffset`.
    private let offsetTableOffset: Int

    private var decodedValues = 0
    /// Strings and data decoded: shared references copy an object once per reference, so values alone do not bound it.
    private var decodedBytes = 0
    private let maxDecodedBytes: Int
    /// Containers being decoded, outermost first: the nesting depth and the cycle check.
    private var containerPath: [Int] = []
    private let meter: ContentMeter?

    init(_ bytes: [UInt8], meter: ContentMeter? = nil) throws(PropertyListError) {
        self.bytes = bytes
        self.meter = meter
        let size = bytes.count
        maxDecodedBytes = PropertyListLimits.maxDecodedBytes(fileBytes: size)
        let headerSize = Self.header.count
        guard size >= headerSize + 1 + Self.trailerSize else {
            throw .binary(
                "the file is \(size) bytes, too short for the \(headerSize)-byte header, one object and the \(Self.trailerSize)-byte trailer"
            )
        }
        guard bytes.starts(with: Self.header) else { throw .binary("the file does not start with \"bplist00\"") }
        let trailer = size - Self.trailerSize
        offsetIntSize = Int(bytes[trailer + 6])
        objectRefSize = Int(bytes[trailer + 7])
        for (size, what) in [(offsetIntSize, "an offset"), (objectRefSize, "an object reference")]
        where !(1...8).contains(size) {
            throw .binary("the trailer gives \(what) size of \(size) bytes; it must be 1 to 8")
        }
        let rawCount = Self.readUInt(bytes, at: trailer + 8, size: 8)
        let rawTop = Self.readUInt(bytes, at: trailer + 16, size: 8)
        let rawTableOffset = Self.readUInt(bytes, at: trailer + 24, size: 8)
        // Each object takes at least one byte, so a count above the file size is a lie; checking it
        // first keeps every later multiplication far from overflowing.
        guard rawCount >= 1, rawCount <= UInt64(size) else {
            throw .binary(
                "the trailer claims \(Plural.count(Int64(clamping: rawCount), "object", number: String(rawCount))), impossible in a \(size)-byte file"
            )
        }
        guard rawTop < rawCount else {
            throw .binary(
                "the top object \(rawTop) does not exist (the file has \(Plural.count(Int64(clamping: rawCount), "object", number: String(rawCount))))"
            )
        }
        guard rawTableOffset > UInt64(headerSize), rawTableOffset < UInt64(trailer) else {
            throw .binary(
                "the offset table offset \(rawTableOffset) is outside the \(size)-byte file's object area (it must lie between \(headerSize + 1) and \(trailer - 1))"
            )
        }
        objectCount = Int(rawCount)
        topObject = Int(rawTop)
        offsetTableOffset = Int(rawTableOffset)
        let tableSize = objectCount * offsetIntSize
        guard tableSize <= trailer - offsetTableOffset else {
            throw .binary(
                "the offset table (\(objectCount) offsets of \(offsetIntSize) bytes at offset \(offsetTableOffset)) does not fit before the trailer at offset \(trailer)"
            )
        }
    }

    mutating func parse() throws(PropertyListError) -> PropertyListValue { try value(of: topObject) }

    // MARK: - Objects

    private mutating func value(of object: Int) throws(PropertyListError) -> PropertyListValue {
        decodedValues += 1
        guard decodedValues <= PropertyListLimits.maxValues else {
            meter?.stop(
                "more than \(PropertyListLimits.maxValues) values in one property list (shared references repeat one object many times)"
            )
            throw .binary(
                "more than \(PropertyListLimits.maxValues) values (shared references expand to a tree too large to decode)"
            )
        }
        if let meter, !meter.charge(objects: 1) { throw .binary(meter.stopped ?? "a decoding limit was reached") }
        let start = try offset(of: object)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0 where marker == 0x08 || marker == 0x09: return .bool(marker == 0x09)
        case 0x0 where marker == 0x00: throw failure(object, start, "is a null, which this reader does not support")
        case 0x1: return .integer(try integer(object, at: start, sizeExponent: info))
        case 0x2: return .real(try real(object, at: start, sizeExponent: info))
        case 0x3 where marker == 0x33:
            let range = try payload(object, start, start + 1, length: 8)
            return .date(Double(bitPattern: Self.readUInt(bytes, at: range.lowerBound, size: 8)))
        case 0x4:
            let (count, first) = try elementCount(object, at: start, info: info)
            let range = try payload(object, start, first, length: count)
            try charge(count)
            return .data(Array(bytes[range]))
        case 0x5, 0x6: return .string(try string(object, at: start))
        case 0x8:
            guard info < 8 else { throw failure(object, start, "is a UID of \(info + 1) bytes; at most 8 are allowed") }
            let range = try payload(object, start, start + 1, length: info + 1)
            return .uid(Self.readUInt(bytes, at: range.lowerBound, size: info + 1))
        case 0xA, 0xC:
            // Sets have no model case; they are rare in property lists and read fine as arrays.
            return .array(try array(object, at: start, info: info))
        case 0xD: return .dictionary(try dictionary(object, at: start, info: info))
        default: throw failure(object, start, "has the unknown marker 0x\(Hex.uppercase(marker))")
        }
    }

    private func integer(_ object: Int, at start: Int, sizeExponent: Int) throws(PropertyListError) -> Int64 {
        guard sizeExponent <= 4 else {
            throw failure(object, start, "is an integer of 2^\(sizeExponent) bytes; at most 16 are allowed")
        }
        let size = 1 << sizeExponent
        let range = try payload(object, start, start + 1, length: size)
        switch size {
        case 1, 2, 4: return Int64(Self.readUInt(bytes, at: range.lowerBound, size: size))
        case 8: return Int64(bitPattern: Self.readUInt(bytes, at: range.lowerBound, size: 8))
        default:
            // A 16-byte two's-complement integer; only values that fit in 64 bits are representable.
            let high = Self.readUInt(bytes, at: range.lowerBound, size: 8)
            let low = Self.readUInt(bytes, at: range.lowerBound + 8, size: 8)
            let lowIsNegative = low >> 63 == 1
            guard (high == 0 && !lowIsNegative) || (high == UInt64.max && lowIsNegative) else {
                throw failure(object, start, "is a 128-bit integer that does not fit in 64 bits")
            }
            return Int64(bitPattern: low)
        }
    }

    private func real(_ object: Int, at start: Int, sizeExponent: Int) throws(PropertyListError) -> Double {
        switch sizeExponent {
        case 2:
            let range = try payload(object, start, start + 1, length: 4)
            return Double(Float(bitPattern: UInt32(Self.readUInt(bytes, at: range.lowerBound, size: 4))))
        case 3:
            let range = try payload(object, start, start + 1, length: 8)
            return Double(bitPattern: Self.readUInt(bytes, at: range.lowerBound, size: 8))
        default: throw failure(object, start, "is a real of 2^\(sizeExponent) bytes; only 4 and 8 are allowed")
        }
    }

    private mutating func string(_ object: Int, at start: Int) throws(PropertyListError) -> String {
        let marker = bytes[start]
        let (count, first) = try elementCount(object, at: start, info: Int(marker & 0x0F))
        if marker >> 4 == 0x5 {
            let range = try payload(object, start, first, length: count)
            try charge(count)
            let characters = bytes[range]
            guard characters.allSatisfy({ $0 < 0x80 }) else {
                throw failure(object, start, "is an ASCII string holding a byte above 0x7F")
            }
            return String(decoding: characters, as: UTF8.self)
        }
        // UTF-16BE, counted in code units: the count fits in the file, so doubling it cannot overflow.
        let range = try payload(object, start, first, length: count * 2)
        try charge(count * 2)
        let units = stride(from: range.lowerBound, to: range.upperBound, by: 2).map {
            UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(units.count)
        let unpaired = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) {
            utf8.append($0)
        }
        guard !unpaired else { throw failure(object, start, "is a UTF-16 string with an unpaired surrogate") }
        return String(decoding: utf8, as: UTF8.self)
    }

    private mutating func array(_ object: Int, at start: Int, info: Int) throws(PropertyListError)
        -> [PropertyListValue]
    {
        let references = try references(object, at: start, info: info, perEntry: 1)
        try enterContainer(object, at: start)
        let elements = try references.map { reference throws(PropertyListError) in try value(of: reference) }
        containerPath.removeLast()
        return elements
    }

    private mutating func dictionary(_ object: Int, at start: Int, info: Int) throws(PropertyListError) -> [String:
        PropertyListValue]
    {
        let references = try references(object, at: start, info: info, perEntry: 2)
        try enterContainer(object, at: start)
        let pairCount = references.count / 2
        var entries: [String: PropertyListValue] = [:]
        entries.reserveCapacity(pairCount)
        for index in 0..<pairCount {
            let key = try key(references[index], in: object)
            entries[key] = try value(of: references[pairCount + index])
        }
        containerPath.removeLast()
        return entries
    }

    private mutating func key(_ reference: Int, in dictionary: Int) throws(PropertyListError) -> String {
        decodedValues += 1
        if let meter, !meter.charge(objects: 1) { throw .binary(meter.stopped ?? "a decoding limit was reached") }
        let start = try offset(of: reference)
        guard [0x5, 0x6].contains(bytes[start] >> 4) else {
            throw .binary(
                "dictionary object \(dictionary) has key object \(reference) with marker 0x\(Hex.uppercase(bytes[start])); keys must be strings"
            )
        }
        return try string(reference, at: start)
    }

    private mutating func enterContainer(_ object: Int, at start: Int) throws(PropertyListError) {
        if containerPath.contains(object) { throw failure(object, start, "contains itself (a reference cycle)") }
        guard containerPath.count < PropertyListLimits.maxDepth else {
            throw failure(object, start, "is nested more than \(PropertyListLimits.maxDepth) containers deep")
        }
        containerPath.append(object)
    }

    // MARK: - Bounds

    /// Counts `count` more decoded bytes; past the limit the document is refused before they are copied.
    private mutating func charge(_ count: Int) throws(PropertyListError) {
        decodedBytes += count
        if let meter, !meter.charge(bytes: count) { throw .binary(meter.stopped ?? "a decoding limit was reached") }
        guard decodedBytes <= maxDecodedBytes else {
            meter?.stop(
                "decodes to more than \(maxDecodedBytes) bytes of strings and data, the limit for a \(bytes.count)-byte file"
            )
            throw .binary(
                "decodes to more than \(maxDecodedBytes) bytes of strings and data, the limit for a \(bytes.count)-byte file (shared references copy one object many times)"
            )
        }
    }

    /// The file offset of an object, checked to lie in the object area.
    private func offset(of object: Int) throws(PropertyListError) -> Int {
        let raw = Self.readUInt(bytes, at: offsetTableOffset + object * offsetIntSize, size: offsetIntSize)
        guard raw >= UInt64(Self.header.count), raw < UInt64(offsetTableOffset) else {
            let place =
                raw >= UInt64(bytes.count)
                ? "is past the end of the \(bytes.count)-byte file"
                : "is outside the object area (bytes \(Self.header.count) to \(offsetTableOffset - 1))"
            throw .binary("object \(object) offset \(raw) \(place)")
        }
        return Int(raw)
    }

    /// An object's element count (the marker's low nibble, else the integer after it) and where its payload starts.
    private func elementCount(_ object: Int, at start: Int, info: Int) throws(PropertyListError) -> (
        count: Int, first: Int
    ) {
        guard info == 0x0F else { return (info, start + 1) }
        let sizeMarker = try payload(object, start, start + 1, length: 1).lowerBound
        let exponent = Int(bytes[sizeMarker] & 0x0F)
        guard bytes[sizeMarker] >> 4 == 0x1, exponent <= 3 else {
            throw failure(
                object, start,
                "has a count marker 0x\(Hex.uppercase(bytes[sizeMarker])); expected an integer of 1 to 8 bytes")
        }
        let size = 1 << exponent
        let range = try payload(object, start, sizeMarker + 1, length: size)
        let raw = Self.readUInt(bytes, at: range.lowerBound, size: size)
        guard raw <= UInt64(offsetTableOffset) else {
            throw failure(object, start, "claims \(raw) elements, more than the file can hold")
        }
        return (Int(raw), range.upperBound)
    }

    /// The object references of an array (`perEntry` 1) or dictionary (2: keys, then values), each of an object.
    private func references(_ object: Int, at start: Int, info: Int, perEntry: Int) throws(PropertyListError) -> [Int] {
        let (count, first) = try elementCount(object, at: start, info: info)
        // count is at most the file size, so these products stay far below Int.max.
        let total = count * perEntry
        let range = try payload(object, start, first, length: total * objectRefSize)
        var references: [Int] = []
        references.reserveCapacity(total)
        for position in stride(from: range.lowerBound, to: range.upperBound, by: objectRefSize) {
            let reference = Self.readUInt(bytes, at: position, size: objectRefSize)
            guard reference < UInt64(objectCount) else {
                throw failure(
                    object, start,
                    "refers to object \(reference), but the file has \(Plural.count(Int64(clamping: objectCount), "object"))"
                )
            }
            references.append(Int(reference))
        }
        return references
    }

    /// `length` bytes at `first`, checked to end within the object area.
    private func payload(_ object: Int, _ start: Int, _ first: Int, length: Int) throws(PropertyListError) -> Range<Int>
    {
        guard length >= 0, first <= offsetTableOffset, length <= offsetTableOffset - first else {
            throw failure(
                object, start,
                "needs \(length) bytes from offset \(first), past the end of the object area at offset \(offsetTableOffset)"
            )
        }
        return first..<(first + length)
    }

    private func failure(_ object: Int, _ start: Int, _ problem: String) -> PropertyListError {
        .binary("object \(object) at offset \(start) \(problem)")
    }

    /// Big-endian unsigned integer of 1 to 8 bytes; callers have checked the range.
    private static func readUInt(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
