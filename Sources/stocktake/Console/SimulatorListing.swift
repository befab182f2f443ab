import StocktakeModel
import StocktakeRendering
import StocktakeScan

/// What `stocktake simulators` prints: every device of a set (UDID, name, runtime, state) and its apps with
/// their data container's size. Names and ids come from plists on disk: lines go through
/// `ConsoleText.visible`, JSON through the escaping stream. Keys follow report.json's vocabulary.
struct SimulatorListing {
    struct Device {
        let device: SimulatorDevice
        let apps: [(app: SimulatorApp, size: SizeTotal?)]
    }

    let deviceSet: DeviceSet
    let devices: [Device]

    /// Reads every device's apps and sizes their data containers.
    init(deviceSet: DeviceSet) {
        self.deviceSet = deviceSet
        devices = deviceSet.devices.map { device in
            Device(device: device, apps: deviceSet.apps(on: device).map { ($0, $0.dataContainerSize()) })
        }
    }

    var text: String {
        var lines = ["\(devices.count) simulator device\(devices.count == 1 ? "" : "s") in \(deviceSet.path)"]
        for entry in devices {
            let device = entry.device
            lines.append("")
            lines.append("\(device.name) (\(device.runtime))  \(device.udid)  \(device.state.name)")
            let width = entry.apps.map(\.app.bundleIdentifier.count).max() ?? 0
            for (app, size) in entry.apps {
                let padding = String(repeating: " ", count: width - app.bundleIdentifier.count)
                var line = "  \(app.bundleIdentifier)\(padding)  \(app.isSystem ? "system" : "user  ")  "
                line += size.map { "\(ByteCount.format($0.allocatedBytes)) on disk" } ?? "no data container"
                if !app.appGroups.isEmpty { line += ", groups: " + app.appGroups.map(\.identifier).joined(separator: " ") }
                lines.append(line)
            }
        }
        lines += deviceSet.problems.map { "could not read: \($0)" }
        return lines.map(ConsoleText.visible).joined(separator: "\n") + "\n"
    }

    func json() throws -> [UInt8] {
        var bytes: [UInt8] = []
        let json = JSONStream { bytes.append(contentsOf: $0) }
        func companions(_ key: StaticString, _ list: [SimulatorApp.Companion]) throws {
            try json.key(key)
            try json.beginArray()
            for companion in list {
                try json.beginObject(compact: true)
                try json.key("identifier"); try json.string(companion.identifier)
                try json.key("path"); try json.string(companion.path)
                try json.endObject()
            }
            try json.endArray()
        }
        func optional(_ key: StaticString, _ value: String?) throws {
            try json.key(key)
            if let value { try json.string(value) } else { try json.null() }
        }
        try json.beginObject()
        try json.key("deviceSet"); try json.string(deviceSet.path)
        try json.key("devices")
        try json.beginArray()
        for entry in devices {
            let device = entry.device
            try json.beginObject()
            try json.key("apps")
            try json.beginArray()
            for (app, size) in entry.apps {
                try json.beginObject()
                try json.key("allocatedBytes"); if let size { try json.int(size.allocatedBytes) } else { try json.null() }
                try optional("appBundle", app.appBundle)
                try companions("appGroups", app.appGroups)
                try json.key("apparentBytes"); if let size { try json.int(size.apparentBytes) } else { try json.null() }
                try json.key("applicationType"); try json.string(app.isSystem ? "System" : "User")
                try json.key("bundleIdentifier"); try json.string(app.bundleIdentifier)
                try optional("dataContainer", app.dataContainer)
                try json.key("groupMatch"); try json.string(app.groupMatch.rawValue)
                try companions("plugins", app.plugins)
                try json.endObject()
            }
            try json.endArray()
            try json.key("booted"); try json.bool(device.state == .booted)
            try json.key("deviceType"); try json.string(device.deviceType)
            try json.key("deviceTypeIdentifier"); try json.string(device.deviceTypeIdentifier)
            try json.key("name"); try json.string(device.name)
            try json.key("path"); try json.string(device.path)
            try json.key("runtime"); try json.string(device.runtime)
            try json.key("runtimeIdentifier"); try json.string(device.runtimeIdentifier)
            try json.key("state"); try json.string(device.state.name)
            try json.key("udid"); try json.string(device.udid)
            try json.endObject()
        }
        try json.endArray()
        try json.key("problems")
        try json.beginArray()
        for problem in deviceSet.problems { try json.string(problem) }
        try json.endArray()
        try json.key("schemaVersion"); try json.int(1)
        try json.endObject()
        try json.finish()
        return bytes
    }
}
