/// Why a device, or an app on it, could not be listed or copied; each message says what to do.
package enum DeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    case noXcrun
    /// `xcrun` could not be started, or ran past its time.
    case couldNotRun(command: String, reason: String)
    case devicectl(command: String, message: String)
    /// devicectl's JSON lacked what is needed, or was no JSON: which field.
    case malformedOutput(command: String, missing: String)
    case noDevice(query: String, devices: [ConnectedDevice])
    case ambiguousDevice(query: String, candidates: [ConnectedDevice])
    case notPaired(ConnectedDevice)
    case developerModeOff(ConnectedDevice)
    case appNotInstalled(app: String, device: ConnectedDevice, copyable: [String])
    case notDevelopmentSigned(app: String, device: ConnectedDevice)
    /// The copy stopped part of the way: nothing is audited.
    case copyFailed(app: String, device: ConnectedDevice, message: String)
    case scratch(String)

    package var lines: [String] {
        switch self {
        case .noDevice(_, let devices), .ambiguousDevice(_, let devices): [message] + Self.list(devices)
        default: [message]
        }
    }

    /// The first line: a listing of devices may follow.
    private var message: String {
        switch self {
        case .noXcrun:
            "xcrun was not found on PATH: `stocktake devices` and `audit --device` run Xcode's devicectl, which "
                + "needs Xcode 15 or later on a Mac (install it, then `xcode-select -s /Applications/Xcode.app`)"
        case .couldNotRun(let command, let reason): "could not run `\(command)`: \(reason)"
        case .devicectl(let command, let message): "`\(command)` failed: \(message)"
        case .malformedOutput(let command, let missing):
            "`\(command)` wrote JSON Stocktake cannot read: \(missing) (is this Xcode 15 or later?)"
        case .noDevice(let query, let devices) where devices.isEmpty:
            "no device is named or has the UDID or identifier '\(query)': devicectl lists no device "
                + "(connect it with a cable, unlock it, and trust this Mac)"
        case .noDevice(let query, _): "no device is named or has the UDID or identifier '\(query)'; devices:"
        case .ambiguousDevice(let query, let candidates):
            "\(candidates.count) devices are named '\(query)'; give one's UDID or identifier:"
        case .notPaired(let device):
            "\(device.title) is not paired with this Mac (\(device.pairingState ?? "pairing state unknown")): "
                + "unlock it, connect it, and tap Trust when it asks to trust this computer"
        case .developerModeOff(let device):
            "Developer Mode is off on \(device.title): turn it on in Settings > Privacy & Security > "
                + "Developer Mode, restart the device, and confirm"
        case .appNotInstalled(let app, let device, let copyable):
            "'\(app)' is not installed on \(device.title)"
                + (copyable.isEmpty
                    ? "; no development-signed app is installed on it"
                    : "; development-signed apps on it: " + copyable.joined(separator: ", "))
        case .notDevelopmentSigned(let app, let device):
            "'\(app)' on \(device.title) is not development-signed, so its container cannot be copied: install a "
                + "build from Xcode (or signed with a development profile), then audit"
        case .copyFailed(let app, let device, let message):
            "copying '\(app)' from \(device.title) failed, so nothing was audited: \(message)"
        case .scratch(let reason): "cannot make a private temporary folder for the copy: \(reason)"
        }
    }

    package var description: String { lines.joined(separator: "\n") }

    /// One device per line, as a user would pick from: name, UDID, identifier, model, OS, pairing, Developer Mode.
    static func list(_ devices: [ConnectedDevice]) -> [String] {
        devices.map { device in
            "  "
                + [
                    device.name, device.udid ?? "-", device.identifier, device.model ?? "-",
                    device.osVersion ?? "-", device.pairingState ?? "-",
                    "Developer Mode " + (device.developerMode ?? "unknown"),
                ].joined(separator: "  ")
        }
    }
}
