import StocktakeModel
import StocktakeRendering
import StocktakeScan

/// What `stocktake simulators` prints: every device of a set (UDID, name, runtime, state) and its apps with
/// their data container's size, then what was refused or passed over (conflicting copies, links not followed). Names and ids come from plists on disk: lines go through
/// `ConsoleText.visible`, JSON through the escaping stream. Keys follow report.json's vocabulary.
struct SimulatorListing {
    let deviceSet: DeviceSet

    /// One device's apps, read and sized when it is printed: the listing holds one device at a time, so a set
    /// of ten thousand devices is listed whole in little memory.
    private func read(_ device: SimulatorDevice) -> (apps: [(app: SimulatorApp, size: SizeTotal?)], notes: [SetNote]) {
        let contents = deviceSet.contents(of: device)
        return (contents.apps.map { ($0, $0.dataContainerSize()) }, contents.notes)
    }

    /// Every line, each made visible on its own, handed to `write` device by device.
    func text(_ write: (String) -> Void) {
        let count = deviceSet.devices.count
        var head = ["\(count) simulator device\(count == 1 ? "" : "s") in \(deviceSet.path)"]
        let conflicted = deviceSet.conflicts.reduce(0) { $0 + $1.count }
        var aside: [String] = []
        if conflicted > 0 { aside.append("\(Plural.count(conflicted, "folder")) refused as conflicting copies") }
        if !deviceSet.notes.isEmpty {
            aside.append("\(Plural.count(deviceSet.notes.count, "entry", "entries")) passed over")
        }
        if !aside.isEmpty { head[0] += " (" + aside.joined(separator: ", ") + ": see the end)" }
        write(Self.visible(head))
        for device in deviceSet.devices {
            let (apps, notes) = read(device)
            var lines = ["", "\(device.name) (\(device.runtime))  \(device.udid)  \(device.state.name)"]
            let width = apps.map(\.app.bundleIdentifier.count).max() ?? 0
            for (app, size) in apps {
                let padding = String(repeating: " ", count: width - app.bundleIdentifier.count)
                var line = "  \(app.bundleIdentifier)\(padding)  \(app.isSystem ? "system" : "user  ")  "
                if app.legacyFolder != nil {
                    line += "iOS 7-era layout (data/Applications): listed, not audited"
                } else {
                    line += size.map { "\(ByteCount.format($0.allocatedBytes)) on disk" } ?? "no data container"
                }
                if !app.appGroups.isEmpty {
                    line += ", groups: " + app.appGroups.map(\.identifier).joined(separator: " ")
                }
                lines.append(line)
            }
            lines += notes.map { "  passed over: \($0)" }
            write(Self.visible(lines))
        }
        var tail: [String] = []
        for group in deviceSet.conflicts {
            tail.append(
                "refused: \(group.count) folders claim the UDID \(group[0].udid), each with a device.plist that agrees:"
            )
            tail += group.map { "  \($0.path)" }
        }
        tail += deviceSet.notes.map { "passed over: \($0)" }
        tail += deviceSet.problems.map { "could not read: \($0)" }
        if !tail.isEmpty { write(Self.visible([""] + tail)) }
    }

    private static func visible(_ lines: [String]) -> String {
        lines.map(ConsoleText.visible).joined(separator: "\n") + "\n"
    }

    /// The JSON document, handed to `write` in pieces, device by device.
    func json(_ write: @escaping ([UInt8]) -> Void) throws {
        let json = JSONStream(sink: write)
        func companions(_ key: StaticString, _ list: [SimulatorApp.Companion]) throws {
            try json.key(key)
            try json.beginArray()
            for companion in list {
                try json.beginObject(compact: true)
                try json.key("identifier")
                try json.string(companion.identifier)
                try json.key("matchedBy")
                try json.string(companion.matchedBy.rawValue)
                try json.key("path")
                try json.string(companion.path)
                try json.endObject()
            }
            try json.endArray()
        }
        func optional(_ key: StaticString, _ value: String?) throws {
            try json.key(key)
            if let value { try json.string(value) } else { try json.null() }
        }
        func notes(_ list: [SetNote]) throws {
            try json.key("notes")
            try json.beginArray()
            for note in list {
                try json.beginObject(compact: true)
                try json.key("message")
                try json.string(note.message)
                try json.key("path")
                try json.string(note.path)
                try json.endObject()
            }
            try json.endArray()
        }
        try json.beginObject()
        try json.key("conflicts")
        try json.beginArray()
        for group in deviceSet.conflicts {
            try json.beginObject(compact: true)
            try json.key("folders")
            try json.beginArray()
            for device in group { try json.string(device.path) }
            try json.endArray()
            try json.key("udid")
            try json.string(group[0].udid)
            try json.endObject()
        }
        try json.endArray()
        try json.key("deviceSet")
        try json.string(deviceSet.path)
        try json.key("devices")
        try json.beginArray()
        for device in deviceSet.devices {
            let (apps, passedOver) = read(device)
            try json.beginObject()
            try json.key("apps")
            try json.beginArray()
            for (app, size) in apps {
                try json.beginObject()
                try json.key("allocatedBytes")
                if let size { try json.int(size.allocatedBytes) } else { try json.null() }
                try optional("appBundle", app.appBundle)
                try companions("appGroups", app.appGroups)
                try json.key("apparentBytes")
                if let size { try json.int(size.apparentBytes) } else { try json.null() }
                try json.key("applicationType")
                try json.string(app.isSystem ? "System" : "User")
                try json.key("bundleIdentifier")
                try json.string(app.bundleIdentifier)
                try optional("dataContainer", app.dataContainer)
                try json.key("groupMatch")
                try json.string(app.groupMatch.rawValue)
                try json.key("layout")
                try json.string(app.legacyFolder == nil ? "containers" : "legacyApplications")
                try optional("legacyFolder", app.legacyFolder)
                try companions("plugins", app.plugins)
                try json.endObject()
            }
            try json.endArray()
            try json.key("booted")
            try json.bool(device.state == .booted)
            try json.key("deviceType")
            try json.string(device.deviceType)
            try json.key("deviceTypeIdentifier")
            try json.string(device.deviceTypeIdentifier)
            try json.key("name")
            try json.string(device.name)
            try notes(passedOver)
            try json.key("path")
            try json.string(device.path)
            try json.key("runtime")
            try json.string(device.runtime)
            try json.key("runtimeIdentifier")
            try json.string(device.runtimeIdentifier)
            try json.key("state")
            try json.string(device.state.name)
            try json.key("udid")
            try json.string(device.udid)
            try json.endObject()
        }
        try json.endArray()
        try notes(deviceSet.notes)
        try json.key("problems")
        try json.beginArray()
        for problem in deviceSet.problems { try json.string(problem) }
        try json.endArray()
        try json.key("schemaVersion")
        try json.int(1)
        try json.endObject()
        try json.finish()
    }
}
