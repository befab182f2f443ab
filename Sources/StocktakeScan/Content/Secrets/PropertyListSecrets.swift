import StocktakeModel

/// The secrets of one property list: every string (and text-like data) with the key path it is stored
/// under, judged by its name (`SecretNames`) and its shape (`SecretShapes`). NSKeyedArchiver values are
/// followed through their `$objects` graph (a dictionary's `NS.keys`/`NS.objects`), each object once, so a
/// cycle ends; data holding a nested binary plist (UserDefaults' archived objects) is read as one, two levels deep.
struct PropertyListSecrets {
    struct Hit: Equatable {
        let place: String
        let kind: SensitiveItem.Kind
        let length: Int
    }

    private(set) var hits: [Hit] = []
    private var visited = 0
    private static let maxVisited = 200_000
    private static let maxNesting = 2

    static func find(in value: PropertyListValue) -> [Hit] {
        var finder = PropertyListSecrets()
        finder.walk(value, path: [], nesting: 0)
        return finder.hits
    }

    private mutating func walk(_ value: PropertyListValue, path: [String], nesting: Int) {
        visited += 1
        guard visited <= Self.maxVisited, path.count <= 64 else { return }
        if case .dictionary = value, value["$archiver"]?.stringValue == "NSKeyedArchiver",
           let objects = value["$objects"]?.arrayValue, let top = value["$top"] {
            var archive = KeyedArchive(objects: objects)
            // `$top` names the archived roots; the usual single one is called `root`, which says nothing.
            for (key, root) in (top.dictionaryValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                walkArchived(root, path: key == "root" ? path : path + [key], archive: &archive, nesting: nesting)
            }
            return
        }
        switch value {
        case .dictionary(let entries):
            for key in entries.keys.sorted() { walk(entries[key]!, path: path + [key], nesting: nesting) }
        case .array(let values):
            for (index, element) in values.enumerated() { walk(element, path: path + ["[\(index)]"], nesting: nesting) }
        case .string(let text):
            judge(text, path: path)
        case .data(let bytes):
            judgeData(bytes, path: path, nesting: nesting)
        default:
            break
        }
    }

    /// Follows UIDs through the archive's objects, each once.
    private mutating func walkArchived(_ value: PropertyListValue, path: [String], archive: inout KeyedArchive, nesting: Int) {
        visited += 1
        guard visited <= Self.maxVisited, path.count <= 64 else { return }
        switch value {
        case .uid(let uid):
            guard let object = archive.take(uid) else { return }
            walkArchived(object, path: path, archive: &archive, nesting: nesting)
        case .dictionary(let entries):
            if let keys = entries["NS.keys"]?.arrayValue, let objects = entries["NS.objects"]?.arrayValue {
                for (key, object) in zip(keys, objects) {
                    let name = archive.peekString(key) ?? "?"
                    walkArchived(object, path: path + [name], archive: &archive, nesting: nesting)
                }
            } else if let string = entries["NS.string"] {
                walkArchived(string, path: path, archive: &archive, nesting: nesting)
            } else if let objects = entries["NS.objects"]?.arrayValue {
                for (index, object) in objects.enumerated() { walkArchived(object, path: path + ["[\(index)]"], archive: &archive, nesting: nesting) }
            } else {
                // An archived object of the app's own class: its fields by their coding keys.
                for key in entries.keys.sorted() where !key.hasPrefix("$") {
                    walkArchived(entries[key]!, path: path + [key], archive: &archive, nesting: nesting)
                }
            }
        case .array(let values):
            for (index, element) in values.enumerated() { walkArchived(element, path: path + ["[\(index)]"], archive: &archive, nesting: nesting) }
        case .string(let text):
            if text != "$null" { judge(text, path: path) }
        case .data(let bytes):
            judgeData(bytes, path: path, nesting: nesting)
        default:
            break
        }
    }

    private mutating func judgeData(_ bytes: [UInt8], path: [String], nesting: Int) {
        if bytes.starts(with: Array("bplist00".utf8)), nesting < Self.maxNesting, bytes.count <= 1 << 20,
           let nested = try? PropertyListReader.parse(bytes) {
            walk(nested, path: path, nesting: nesting + 1)
        } else if bytes.count <= 64 << 10, let text = PathText.text(validatingUTF8: bytes),
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 && !["\n", "\r", "\t"].contains($0) }) {
            judge(text, path: path)
        }
    }

    private mutating func judge(_ text: String, path: [String]) {
        let place = "key " + path.joined(separator: ".")
        if let name = path.last(where: { !$0.hasPrefix("[") }), let kind = SecretNames.kind(ofName: name),
           let length = SecretNames.secretLength(text, as: kind) {
            hits.append(Hit(place: place, kind: kind, length: length))
            return
        }
        if text.count >= 16, let shaped = SecretShapes.find(in: Substring(text)).first {
            hits.append(Hit(place: place, kind: shaped.kind, length: shaped.length))
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

    /// A key's text without marking it taken: keys are shared by every dictionary that uses them.
    func peekString(_ value: PropertyListValue) -> String? {
        guard case .uid(let uid) = value, uid < UInt64(objects.count) else { return value.stringValue }
        return objects[Int(uid)].stringValue
    }
}
