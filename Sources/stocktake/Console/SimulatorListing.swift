import StocktakeModel
import StocktakeRendering
import StocktakeScan

/// What `stocktake simulators` prints: every device of a set (UDID, name, runtime, state) and its apps with
/// their data container's size, then what was refused or passed over (conflicting copies, links not followed). Names and ids come from plists on disk: lines go through
/// `Terminal.visible`, JSON through the escaping stream. Keys follow report.json's vocabulary.
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
        var head = ["\(Plural.count(deviceSet.devices.count, "simulator device")) in \(deviceSet.path)"]
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
                line +=
                    app.legacyFolder != nil
                    ? "iOS 7-era layout (data/Applications): listed, not audited"
                    : size.map { "\(ByteCount.format($0.allocatedBytes)) on disk" } ?? "no data container"
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
        lines.map(Terminal.visible).joined(separator: "\n") + "\n"
    }

    /// The JSON document, handed to `write` in pieces, device by device.
    func json(_ write: @escaping ([UInt8]) -> Void) throws {
        let json = JSONStream(sink: write)
        func companions(_ key: String, _ list: [SimulatorApp.Companion]) throws {
            try json.array(key) {
                for companion in list {
                    try json.object(compact: true) {
                        try json.field("identifier", companion.identifier)
                        try json.field("matchedBy", companion.matchedBy.rawValue)
                        try json.field("path", companion.path)
                    }
                }
            }
        }
        func notes(_ list: [SetNote]) throws {
            try json.array("notes") {
                for note in list {
                    try json.object(compact: true) {
                        try json.field("message", note.message)
                        try json.field("path", note.path)
                    }
                }
            }
        }
        try json.object {
            try json.array("conflicts") {
                for group in deviceSet.conflicts {
                    try json.object(compact: true) {
                        try json.field("folders", group.map(\.path))
                        try json.field("udid", group[0].udid)
                    }
                }
            }
            try json.field("deviceSet", deviceSet.path)
            try json.array("devices") {
                for device in deviceSet.devices {
                    let (apps, passedOver) = read(device)
                    try json.object {
                        try json.array("apps") {
                            for (app, size) in apps {
                                try json.object {
                                    try json.field("allocatedBytes", size?.allocatedBytes)
                                    try json.field("appBundle", app.appBundle)
                                    try companions("appGroups", app.appGroups)
                                    try json.field("apparentBytes", size?.apparentBytes)
                                    try json.field("applicationType", app.isSystem ? "System" : "User")
                                    try json.field("bundleIdentifier", app.bundleIdentifier)
                                    try json.field("dataContainer", app.dataContainer)
                                    try json.field("groupMatch", app.groupMatch.rawValue)
                                    try json.field(
                                        "layout", app.legacyFolder == nil ? "containers" : "legacyApplications")
                                    try json.field("legacyFolder", app.legacyFolder)
                                    try companions("plugins", app.plugins)
                                }
                            }
                        }
                        try json.field("booted", device.state == .booted)
                        try json.field("deviceType", device.deviceType)
                        try json.field("deviceTypeIdentifier", device.deviceTypeIdentifier)
                        try json.field("name", device.name)
                        try notes(passedOver)
                        try json.field("path", device.path)
                        try json.field("runtime", device.runtime)
                        try json.field("runtimeIdentifier", device.runtimeIdentifier)
                        try json.field("state", device.state.name)
                        try json.field("udid", device.udid)
                    }
                }
            }
            try notes(deviceSet.notes)
            try json.field("problems", deviceSet.problems)
            try json.field("schemaVersion", 1)
        }
        try json.finish()
    }
}
