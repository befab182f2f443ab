/// Why a simulator device or app could not be found. Each message says what was looked for, where, and
/// what is there instead, so the user can correct the command.
public enum SimulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadableDeviceSet(path: String, reason: String)
    case notADeviceSet(path: String)
    case noDevice(query: String, deviceSet: String, devices: [SimulatorDevice])
    case ambiguousDevice(query: String, candidates: [SimulatorDevice])
    case noBootedDevice(deviceSet: String)
    case appNotInstalled(app: String, device: SimulatorDevice, nearest: [String])
    case appHasNoData(app: String, device: SimulatorDevice)

    public var description: String {
        switch self {
        case .unreadableDeviceSet(let path, let reason):
            return "\(path): cannot read the simulator device set: \(reason)"
        case .notADeviceSet(let path):
            return "\(path) is not a CoreSimulator device set: no folder in it holds a device.plist "
                + "(give the folder `xcrun simctl --set` would take, by default ~/Library/Developer/CoreSimulator/Devices)"
        case .noDevice(let query, let deviceSet, let devices):
            let shown = devices.isEmpty ? " (the set has no devices)" : "; devices:\n" + Self.list(devices)
            return "no simulator device is named or has the UDID '\(query)' in \(deviceSet)\(shown)"
        case .ambiguousDevice(let query, let candidates):
            return "\(candidates.count) simulator devices match '\(query)'; give one's UDID:\n" + Self.list(candidates)
        case .noBootedDevice(let deviceSet):
            return "no simulator device is booted in \(deviceSet): boot one (xcrun simctl boot UDID) or give its name or UDID"
        case .appNotInstalled(let app, let device, let nearest):
            let hint = nearest.isEmpty ? "" : "; the nearest installed ids: " + nearest.joined(separator: ", ")
            return "'\(app)' is not installed on \(Self.describe(device))\(hint)"
        case .appHasNoData(let app, let device):
            return "'\(app)' is installed on \(Self.describe(device)) but has no data container yet: run it once, then audit"
        }
    }

    /// `iPhone 15 (iOS 17.5, 0E3B…)` for one-line messages.
    static func describe(_ device: SimulatorDevice) -> String {
        "\(device.name) (\(device.runtime), \(device.udid))"
    }

    /// One candidate per line: UDID, name, runtime and state, as a user would pick from.
    static func list(_ devices: [SimulatorDevice]) -> String {
        devices.map { "  \($0.udid)  \($0.name)  \($0.runtime)  \($0.state.name)" }.joined(separator: "\n")
    }
}
