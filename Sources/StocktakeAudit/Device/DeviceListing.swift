import Foundation

/// `stocktake devices`: the devices, or one device's apps, as lines (for the printer to escape each) or JSON.
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
        try encode(Listing(devices: devices))
    }

    package static func json(_ apps: [InstalledApp], on device: ConnectedDevice) throws -> Data {
        try encode(Listing(device: device, apps: apps))
    }

    private static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    private struct Listing: Encodable {
        var schemaVersion = 1
        var device: ConnectedDevice? = nil
        var devices: [ConnectedDevice]? = nil
        var apps: [InstalledApp]? = nil
    }
}

// The rows: null rather than absent, so that every row has every key.
extension ConnectedDevice: Encodable {
    private enum Key: String, CodingKey {
        case identifier, name, udid, model, osVersion, platform, pairingState, developerMode, tunnelState, transport
    }

    package func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Key.self)
        for (key, value): (Key, String?) in [
            (.identifier, identifier), (.name, name), (.udid, udid), (.model, model), (.osVersion, osVersion),
            (.platform, platform), (.pairingState, pairingState), (.developerMode, developerMode),
            (.tunnelState, tunnelState), (.transport, transport),
        ] {
            try keyed.encode(value, forKey: key)
        }
    }
}

extension InstalledApp: Encodable {
    private enum Key: String, CodingKey { case bundleIdentifier, name, version, bundleVersion, copyable, hidden }

    package func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Key.self)
        for (key, value): (Key, String?) in [
            (.bundleIdentifier, bundleIdentifier), (.name, name), (.version, version), (.bundleVersion, bundleVersion),
        ] {
            try keyed.encode(value, forKey: key)
        }
        // Development-signed: `audit --device` can copy its containers.
        try keyed.encode(builtByDeveloper, forKey: .copyable)
        try keyed.encode(hidden, forKey: .hidden)
    }
}
