import StocktakeModel
import StocktakePropertyLists

/// The secrets of one property list, each string judged under its key path. NSKeyedArchiver objects are followed
/// once each, so a cycle ends; data holding a binary plist (UserDefaults' archived objects) is read, two levels deep.
struct PropertyListSecrets {
    /// One secret found by any reader: where, what, how long. A name in the place that is itself a token is replaced
    /// by its shape here (`<token, 40 chars>`): reports and diffs show places verbatim.
    struct Hit: Equatable {
        let place: String
        let kind: SensitiveItem.Kind
        let length: Int

        init(place: String, kind: SensitiveItem.Kind, length: Int) {
            self.place = SecretRandomness.redacted(place)
            self.kind = kind
            self.length = length
        }
    }

    private(set) var hits: [Hit] = []
    private var visited = 0
    private static let maxVisited = 200_000
    private static let maxNesting = 2
    /// Counts every visit and byte judged, a shared value as often as it is reached; past a limit the walk stops.
    private let meter: ContentMeter

    private init(meter: ContentMeter) { self.meter = meter }

    static func find(in value: PropertyListValue, meter: ContentMeter = ContentMeter()) -> [Hit] {
        var finder = PropertyListSecrets(meter: meter)
        var archive: KeyedArchive?
        finder.walk(value, path: [], archive: &archive, nesting: 0)
        return finder.hits
    }

    /// Walks a plist, or (with `archive`) an NSKeyedArchiver archive's objects, following UIDs, each once.
    private mutating func walk(_ value: PropertyListValue, path: [String], archive: inout KeyedArchive?, nesting: Int) {
        guard path.count <= 64, visit() else { return }
        switch value {
        case .uid(let uid) where archive != nil:
            guard let object = archive?.take(uid) else { return }
            walk(object, path: path, archive: &archive, nesting: nesting)
        case .dictionary(let entries) where archive != nil:
            if let keys = entries["NS.keys"]?.arrayValue, let objects = entries["NS.objects"]?.arrayValue {
                for (key, object) in zip(keys, objects) {
                    // Keys are shared by every dictionary that uses them: peeked, not taken.
                    let name = (archive?.peek(key) ?? key).stringValue ?? "?"
                    walk(object, path: path + [name], archive: &archive, nesting: nesting)
                }
            } else if let string = entries["NS.string"] {
                walk(string, path: path, archive: &archive, nesting: nesting)
            } else if let objects = entries["NS.objects"]?.arrayValue {
                for (index, object) in objects.enumerated() {
                    walk(object, path: path + ["[\(index)]"], archive: &archive, nesting: nesting)
                }
            } else {
                // An archived object of the app's own class: its fields by their coding keys, but for an SDK's
                // public project key (`PublicValues.sdkFields`).
                let className = entries["$class"].flatMap { archive?.peek($0)?["$classname"]?.stringValue } ?? ""
                for key in entries.keys.sorted()
                where !key.hasPrefix("$") && !PublicValues.isPublicField(className: className, key: key) {
                    walk(entries[key]!, path: path + [key], archive: &archive, nesting: nesting)
                }
            }
        case .dictionary(let entries):
            if value["$archiver"]?.stringValue == "NSKeyedArchiver", let objects = value["$objects"]?.arrayValue,
                let top = value["$top"]
            {
                var keyed: KeyedArchive? = KeyedArchive(objects: objects)
                // `$top` names the archived roots; the usual single one is called `root`, which says nothing.
                for (key, root) in (top.dictionaryValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                    walk(root, path: key == "root" ? path : path + [key], archive: &keyed, nesting: nesting)
                }
                return
            }
            for key in entries.keys.sorted() {
                walk(entries[key]!, path: path + [key], archive: &archive, nesting: nesting)
            }
        case .array(let values):
            for (index, element) in values.enumerated() {
                walk(element, path: path + ["[\(index)]"], archive: &archive, nesting: nesting)
            }
        case .string(let text): if archive == nil || text != "$null" { judge(text, path: path) }
        case .data(let bytes): judgeData(bytes, path: path, nesting: nesting)
        default: break
        }
    }

    /// Counts one visit; false once a limit stops the walk.
    private mutating func visit() -> Bool {
        visited += 1
        if visited > Self.maxVisited { meter.stop("more than \(Self.maxVisited) values visited in one property list") }
        return meter.charge(objects: 1)
    }

    private mutating func judgeData(_ bytes: [UInt8], path: [String], nesting: Int) {
        if bytes.starts(with: Array("bplist00".utf8)), nesting < Self.maxNesting,
            bytes.count <= PropertyListReader.metadataLimit,
            let nested = try? PropertyListReader.parse(bytes, meter: meter)
        {
            var archive: KeyedArchive?
            walk(nested, path: path, archive: &archive, nesting: nesting + 1)
        } else if bytes.count <= 64 << 10, let text = PathText.text(validatingUTF8: bytes),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && !["\n", "\r", "\t"].contains($0) })
        {
            judge(text, path: path)
        }
    }

    private mutating func judge(_ text: String, path: [String]) {
        guard meter.charge(objects: ContentMeter.judgementCost, bytes: text.utf8.count) else { return }
        var found = path.last(where: { !$0.hasPrefix("[") }).flatMap { name in
            PublicValues.isClientIdentifierKey(name) ? nil : SecretNames.secret(text, storedUnder: name)
        }
        if found == nil, text.count >= 16 { found = SecretShapes.find(in: Substring(text)).first }
        if found == nil, let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[" {
            // JSON kept as a string or data (`{"client_secret": …}`) is read as a text file would be.
            found = TextSecrets.find(in: Array(text.utf8)).first.map { ($0.kind, $0.length) }
        }
        if let found {
            hits.append(Hit(place: "key " + path.joined(separator: "."), kind: found.kind, length: found.length))
        }
    }
}

/// The `$objects` of one NSKeyedArchiver archive, each object given out once (cycles and shared objects end).
private struct KeyedArchive {
    let objects: [PropertyListValue]
    var taken: Set<UInt64> = []

    init(objects: [PropertyListValue]) { self.objects = objects }

    mutating func take(_ uid: UInt64) -> PropertyListValue? {
        guard uid < UInt64(objects.count), taken.insert(uid).inserted else { return nil }
        return objects[Int(uid)]
    }

    /// An object without marking it taken (a class description or a key, shared by the objects that use it).
    func peek(_ value: PropertyListValue) -> PropertyListValue? {
        guard case .uid(let uid) = value, uid < UInt64(objects.count) else { return nil }
        return objects[Int(uid)]
    }
}
