import Foundation

/// `stocktake devices`: the connected devices, or one device's apps, as lines of text (names from the device stay
/// inside their line, for the printer to escape each) or JSON (`schemaVersion` 1, keys sorted; a value devicectl
/// did not give is null).
package enum DeviceListing {
    package static func lines(_ devices: [ConnectedDevice]) -> [String] {
        var lines = ["\(devices.count) device\(devices.count == 1 ? "" : "s") (xcrun devicectl list devices)"]
        for device in devices {
            lines.append(
                "\(device.name)  \(device.udid ?? "-")  \(device.model ?? "-")  "
                    + "\(device.platform ?? "iOS") \(device.osVersion ?? "-")  \(device.pairingState ?? "pairing unknown")  "
                    + "Developer Mode \(device.developerMode ?? "unknown")  identifier \(device.identifier)")
        }
        return lines
    }

    package static func lines(_ apps: [InstalledApp], on device: ConnectedDevice) -> [String] {
        let copyable = apps.filter(\.builtByDeveloper).count
        var lines = [
            "\(apps.count) app\(apps.count == 1 ? "" : "s") on \(device.title), \(copyable) copyable "
                + "(development-signed: `stocktake audit --device \(device.udid ?? device.identifier) --app ID`)"
        ]
        for app in apps {
            let version = [app.version, app.bundleVersion.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            lines.append(
                "\(app.bundleIdentifier)  \(app.name ?? "-")  \(version.isEmpty ? "-" : version)  "
                    + (app.builtByDeveloper ? "copyable" : "not development-signed"))
        }
        return lines
    }

    package static func json(_ devices: [ConnectedDevice]) throws -> Data {
        try encode(Devices(schemaVersion: 1, devices: devices.map(DeviceRow.init)))
    }

    package static func json(_ apps: [InstalledApp], on device: ConnectedDevice) throws -> Data {
        try encode(Apps(schemaVersion: 1, device: DeviceRow(device), apps: apps.map(AppRow.init)))
    }

    private static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    private struct Devices: Encodable {
        let schemaVersion: Int
        let devices: [DeviceRow]
    }

    private struct Apps: Encodable {
        let schemaVersion: Int
        let device: DeviceRow
        let apps: [AppRow]
    }

    private struct DeviceRow: Encodable {
        let identifier: String
        let name: String
        let udid, model, osVersion, platform, pairingState, developerMode, tunnelState, transport: String?

        init(_ device: ConnectedDevice) {
            identifier = device.identifier
            name = device.name
            udid = device.udid
            model = device.model
            osVersion = device.osVersion
            platform = device.platform
            pairingState = device.pairingState
            developerMode = device.developerMode
            tunnelState = device.tunnelState
            transport = device.transport
        }

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode(identifier, forKey: .identifier)
            try keyed.encode(name, forKey: .name)
            // Null rather than absent: every row has every key.
            for (key, value) in [
                (Key.udid, udid), (.model, model), (.osVersion, osVersion), (.platform, platform),
                (.pairingState, pairingState), (.developerMode, developerMode), (.tunnelState, tunnelState),
                (.transport, transport),
            ] {
                try keyed.encode(value, forKey: key)
            }
        }

        enum Key: String, CodingKey {
            case identifier, name, udid, model, osVersion, platform, pairingState, developerMode, tunnelState, transport
        }
    }

    private struct AppRow: Encodable {
        let bundleIdentifier: String
        let name, version, bundleVersion: String?
        /// Development-signed: `audit --device` can copy its containers.
        let copyable: Bool
        let hidden: Bool

        init(_ app: InstalledApp) {
            bundleIdentifier = app.bundleIdentifier
            name = app.name
            version = app.version
            bundleVersion = app.bundleVersion
            copyable = app.builtByDeveloper
            hidden = app.hidden
        }

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode(bundleIdentifier, forKey: .bundleIdentifier)
            try keyed.encode(name, forKey: .name)
            try keyed.encode(version, forKey: .version)
            try keyed.encode(bundleVersion, forKey: .bundleVersion)
            try keyed.encode(copyable, forKey: .copyable)
            try keyed.encode(hidden, forKey: .hidden)
        }

        enum Key: String, CodingKey { case bundleIdentifier, name, version, bundleVersion, copyable, hidden }
    }
}
