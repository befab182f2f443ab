/// Why a simulator device or app could not be found: what was looked for, where, and what is there instead.
public enum SimulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadableDeviceSet(path: String, reason: String)
    case notADeviceSet(path: String)
    case noDevice(query: String, deviceSet: String, devices: [SimulatorDevice])
    case ambiguousDevice(query: String, candidates: [SimulatorDevice])
    case noBootedDevice(deviceSet: String)
    case appNotInstalled(app: String, device: SimulatorDevice, nearest: [String])
    case appHasNoData(app: String, device: SimulatorDevice)
    /// Two device folders are each valid for one UDID (names differing only by case): which one is meant is unknown.
    case conflictingDevices(udid: String, folders: [String])
    /// The app is on an iOS 7-era runtime (its `.app` inside its data folder), which the audit does not read.
    case legacyLayout(app: String, device: SimulatorDevice, folder: String)
    /// The app was not found, and part of the device was passed over: the notes say which.
    case appNotReadable(app: String, device: SimulatorDevice, notes: [String])

    /// The message's lines. A name stays inside its line: each line is escaped on its own, so no name starts one.
    public var lines: [String] {
        switch self {
        case .noDevice(_, let deviceSet, let devices) where !devices.isEmpty:
            // A set of thousands of devices is not printed whole here: the count of the rest is, and where to see them.
            let shown = [headline] + Self.list(Array(devices.prefix(Self.maxListed)))
            let rest = devices.count - Self.maxListed
            guard rest > 0 else { return shown }
            return shown + [
                "  … and \(rest) more of \(devices.count) (`stocktake simulators --device-set \(deviceSet)` lists them all)"
            ]
        case .ambiguousDevice(_, let candidates): return [headline] + Self.list(candidates)
        case .conflictingDevices(_, let folders): return [headline] + folders.map { "  " + $0 }
        case .appNotReadable(_, _, let notes): return [headline] + notes.map { "  " + $0 }
        default: return [headline]
        }
    }

    private var headline: String {
        switch self {
        case .unreadableDeviceSet(let path, let reason):
            "\(path): cannot read the simulator device set: \(reason)"
        case .notADeviceSet(let path):
            "\(path) is not a CoreSimulator device set: no folder in it holds a device.plist (give the folder `xcrun simctl --set` would take, by default ~/Library/Developer/CoreSimulator/Devices)"
        case .noDevice(let query, let deviceSet, let devices):
            "no simulator device is named or has the UDID '\(query)' in \(deviceSet)"
                + (devices.isEmpty ? " (the set has no devices)" : "; devices:")
        case .ambiguousDevice(let query, let candidates):
            "\(candidates.count) simulator devices match '\(query)'; give one's UDID:"
        case .noBootedDevice(let deviceSet):
            "no simulator device is booted in \(deviceSet): boot one (xcrun simctl boot UDID) or give its name or UDID"
        case .appNotInstalled(let app, let device, let nearest):
            "'\(app)' is not installed on \(Self.describe(device))"
                + (nearest.isEmpty ? "" : "; the nearest installed ids: " + nearest.joined(separator: ", "))
        case .appHasNoData(let app, let device):
            "'\(app)' is installed on \(Self.describe(device)) but has no data container yet: run it once, then audit"
        case .conflictingDevices(let udid, let folders):
            "\(folders.count) device folders claim the UDID \(udid), each with a device.plist that agrees: refusing to guess which one is the device; remove or rename the copy:"
        case .legacyLayout(let app, let device, let folder):
            "'\(app)' is on \(Self.describe(device)), whose runtime keeps apps in the iOS 7-era layout (data/Applications/<UUID>/, the .app inside the app's data folder, no container metadata), which `audit --simulator` does not read: its data is \(folder); audit a copy of that folder without the .app (`stocktake audit COPY --bundle-id \(app)`), or install the app on a device of a current runtime"
        case .appNotReadable(let app, let device, _):
            "'\(app)' was not found on \(Self.describe(device)), part of which was passed over (Stocktake follows no symbolic link in a device set):"
        }
    }

    public var description: String { lines.joined(separator: "\n") }

    /// Most devices a "no such device" refusal lists; it says how many more there are.
    static let maxListed = 50

    /// `iPhone 15 (iOS 17.5, 0E3B…)` for one-line messages.
    static func describe(_ device: SimulatorDevice) -> String {
        "\(device.name) (\(device.runtime), \(device.udid))"
    }

    /// One candidate per line: UDID, name, runtime and state, as a user would pick from.
    static func list(_ devices: [SimulatorDevice]) -> [String] {
        devices.map { "  \($0.udid)  \($0.name)  \($0.runtime)  \($0.state.name)  \($0.path)" }
    }
}
