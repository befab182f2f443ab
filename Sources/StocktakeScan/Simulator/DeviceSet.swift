#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StocktakeModel

/// A CoreSimulator device set (`~/Library/Developer/CoreSimulator/Devices`, or any folder `xcrun simctl
/// --set` names): one folder per device holding `device.plist` and `data/Containers`. Only ever read.
public struct DeviceSet: Sendable {
    public let path: String
    /// Ordered by runtime, then name, then UDID, as a person scans a list.
    public let devices: [SimulatorDevice]
    /// Device folders that could not be read (a malformed device.plist), for the caller to show.
    public let problems: [String]

    /// Where Xcode keeps the user's devices; nil without a home folder.
    public static var defaultPath: String? {
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/Library/Developer/CoreSimulator/Devices"
    }

    /// The set at `path`, or the default set for nil.
    public static func open(_ path: String?) throws(SimulatorError) -> DeviceSet {
        guard let path = path ?? defaultPath else {
            throw .unreadableDeviceSet(path: "~/Library/Developer/CoreSimulator/Devices", reason: "HOME is not set; give --device-set")
        }
        return try read(path)
    }

    public static func read(_ path: String) throws(SimulatorError) -> DeviceSet {
        let listing: DirectoryListing
        do {
            listing = try DirectoryListing.read(path, limit: 10_000)
        } catch {
            throw .unreadableDeviceSet(path: path, reason: error.reason)
        }
        var devices: [SimulatorDevice] = []
        var problems: [String] = []
        for entry in listing.entries where entry.kind == .directory {
            let folder = path + "/" + entry.name
            guard FileKind(path: folder + "/device.plist") == .regularFile else { continue }
            do {
                if let device = try SimulatorDevice.read(folder: folder) { devices.append(device) }
            } catch {
                problems.append(error.message)
            }
        }
        guard !devices.isEmpty || !problems.isEmpty else {
            if listing.entries.isEmpty { return DeviceSet(path: path, devices: [], problems: []) }
            throw .notADeviceSet(path: path)
        }
        devices.sort { ($0.runtimeOrder, $0.name, $0.udid) < ($1.runtimeOrder, $1.name, $1.udid) }
        return DeviceSet(path: path, devices: devices, problems: problems)
    }

    /// The device `query` names: `booted`, a UDID (any case) or an exact name. Refuses a name two devices
    /// share and `booted` while several are, listing the candidates.
    public func device(matching query: String) throws(SimulatorError) -> SimulatorDevice {
        if query.lowercased() == "booted" {
            let booted = devices.filter { $0.state == .booted }
            guard booted.count == 1 else {
                throw booted.isEmpty ? .noBootedDevice(deviceSet: path) : .ambiguousDevice(query: query, candidates: booted)
            }
            return booted[0]
        }
        if let device = devices.first(where: { $0.udid.lowercased() == query.lowercased() }) { return device }
        let named = devices.filter { $0.name == query }
        guard named.count == 1 else {
            throw named.isEmpty ? .noDevice(query: query, deviceSet: path, devices: devices) : .ambiguousDevice(query: query, candidates: named)
        }
        return named[0]
    }

    /// Every app with a bundle or a data container on the device, user apps first, each by bundle id.
    public func apps(on device: SimulatorDevice) -> [SimulatorApp] {
        SimulatorContainers.read(device).apps()
    }

    /// One app of the device, with its containers.
    public func app(_ bundleIdentifier: String, on device: SimulatorDevice) throws(SimulatorError) -> SimulatorApp {
        let containers = SimulatorContainers.read(device)
        guard containers.appIdentifiers.contains(bundleIdentifier) else {
            let ids = apps(on: device).map(\.bundleIdentifier)
            throw .appNotInstalled(app: bundleIdentifier, device: device, nearest: EditDistance.nearest(to: bundleIdentifier, among: ids, limit: 3))
        }
        let app = containers.app(bundleIdentifier)
        guard app.dataContainer != nil else { throw .appHasNoData(app: bundleIdentifier, device: device) }
        return app
    }
}

private extension SimulatorDevice {
    /// Runtimes sort by platform, then version as numbers (iOS 9 before iOS 17).
    var runtimeOrder: [String] {
        runtime.split(whereSeparator: { $0 == " " || $0 == "." }).map { part in
            part.allSatisfy(\.isNumber) ? String(repeating: "0", count: max(0, 6 - part.count)) + part : String(part)
        }
    }
}

private func < (lhs: ([String], String, String), rhs: ([String], String, String)) -> Bool {
    if lhs.0 != rhs.0 { return lhs.0.lexicographicallyPrecedes(rhs.0) }
    return (lhs.1, lhs.2) < (rhs.1, rhs.2)
}

extension SimulatorApp {
    /// The data container's size as `du` counts it (apparent and allocated bytes, every entry, hard links
    /// once); nil when there is no data container or it cannot be read.
    public func dataContainerSize(threads: Int = 2) -> SizeTotal? {
        guard let dataContainer else { return nil }
        return try? InventoryScanner.scan(root: dataContainer, options: ScanOptions(threads: threads)).totals.onDisk
    }
}
