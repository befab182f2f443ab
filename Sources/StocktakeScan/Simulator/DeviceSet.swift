import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

/// A CoreSimulator device set (`~/Library/Developer/CoreSimulator/Devices`, or what `xcrun simctl --set` names): a
/// folder per device, named by its UDID. Only ever read, without following a symbolic link below the set's folder.
public struct DeviceSet: Sendable {
    public let path: String
    /// By runtime, then name, then UDID, as a person scans a list; none is left out for their number.
    public let devices: [SimulatorDevice]
    /// Device folders that could not be read (a malformed device.plist), for the caller to show.
    public let problems: [String]
    /// What was passed over: links (not followed), folders whose device.plist names another UDID (`UDID.bak`).
    public let notes: [SetNote]
    /// Devices whose UDID several folders validly claim (names differing only by case): refused when asked for.
    public let conflicts: [[SimulatorDevice]]

    /// The set at `path`, or for nil the default set, where Xcode keeps the user's devices.
    public static func open(_ path: String?) throws(SimulatorError) -> DeviceSet {
        if let path { return try read(path) }
        let defaultSet = "/Library/Developer/CoreSimulator/Devices"
        guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else {
            throw .unreadableDeviceSet(path: "~" + defaultSet, reason: "HOME is not set; give --device-set")
        }
        return try read(home + defaultSet)
    }

    /// A device is the folder named by its UDID whose `device.plist` says that UDID (any case). The set's folder may
    /// be a link (the user named it); nothing below it is followed.
    public static func read(_ path: String) throws(SimulatorError) -> DeviceSet {
        let listing: DirectoryListing
        do {
            // Every entry: a device set of ten thousand devices is still small, and none may go unmentioned.
            listing = try DirectoryListing.read(path, limit: Int.max)
        } catch {
            throw .unreadableDeviceSet(path: path, reason: error.reason)
        }
        var found: [SimulatorDevice] = []
        var problems: [String] = []
        var guarded = LinkGuard()
        for entry in listing.entries.sorted(by: { $0.name < $1.name }) {
            let folder = Paths.join(path, entry.name)
            if entry.kind == .symbolicLink {
                guarded.note(.link(folder))
                continue
            }
            guard entry.kind == .directory, let plist = guarded.file(folder, "device.plist") else { continue }
            let read = Result { () throws(PropertyListError) in try SimulatorDevice.read(folder: folder, plist: plist) }
            switch read {
            case .failure(let error): problems.append(error.message)
            case .success(let device?) where device.udid.lowercased() == entry.name.lowercased(): found.append(device)
            case .success(let device?):
                let message =
                    "its device.plist names the UDID \(device.udid), not the folder's name: not that device (a copy?), ignored"
                guarded.note(SetNote(path: folder, message: message))
            case .success(nil): continue
            }
        }
        let byUDID = Dictionary(grouping: found, by: { $0.udid.lowercased() })
        let devices = found.filter { byUDID[$0.udid.lowercased()]?.count == 1 }.sorted { a, b in
            a.runtimeOrder != b.runtimeOrder
                ? a.runtimeOrder.lexicographicallyPrecedes(b.runtimeOrder) : (a.name, a.udid) < (b.name, b.udid)
        }
        let conflicts = byUDID.values.filter { $0.count > 1 }.map { $0.sorted { $0.path < $1.path } }
            .sorted { $0[0].path < $1[0].path }
        // An empty folder is an empty set; a folder of other things is no set.
        guard !found.isEmpty || !problems.isEmpty || !guarded.notes.isEmpty || listing.entries.isEmpty else {
            throw .notADeviceSet(path: path)
        }
        return DeviceSet(path: path, devices: devices, problems: problems, notes: guarded.notes, conflicts: conflicts)
    }

    /// The device `query` names: `booted`, a UDID (any case) or an exact name. Refuses a name two devices share,
    /// `booted` while several are, and a UDID two folders claim.
    public func device(matching query: String) throws(SimulatorError) -> SimulatorDevice {
        func refuseConflict(_ udid: String) throws(SimulatorError) {
            guard let group = conflicts.first(where: { $0[0].udid.lowercased() == udid.lowercased() }) else { return }
            throw .conflictingDevices(udid: group[0].udid, folders: group.map(\.path))
        }
        let claimed = conflicts.flatMap { $0 }
        let candidates: [SimulatorDevice]
        if query.lowercased() == "booted" {
            candidates = (devices + claimed).filter { $0.state == .booted }
            if candidates.isEmpty { throw .noBootedDevice(deviceSet: path) }
        } else {
            try refuseConflict(query)
            if let device = devices.first(where: { $0.udid.lowercased() == query.lowercased() }) { return device }
            candidates = (devices + claimed).filter { $0.name == query }
            if candidates.isEmpty { throw .noDevice(query: query, deviceSet: path, devices: devices) }
        }
        // Copies of one device (one UDID, several valid folders) are a conflict, not a choice to offer.
        if Set(candidates.map { $0.udid.lowercased() }).count == 1 { try refuseConflict(candidates[0].udid) }
        guard candidates.count == 1 else { throw .ambiguousDevice(query: query, candidates: candidates) }
        return candidates[0]
    }

    /// Every app with a bundle or a data container on the device, user apps first, each by bundle id.
    public func apps(on device: SimulatorDevice) -> [SimulatorApp] { SimulatorContainers.read(device).apps() }

    /// Every app of the device and what was passed over while reading it (links not followed, listings cut).
    public func contents(of device: SimulatorDevice) -> (apps: [SimulatorApp], notes: [SetNote]) {
        let containers = SimulatorContainers.read(device)
        let apps = containers.apps()
        return (apps, containers.notes + apps.flatMap(\.notes))
    }

    /// One app of the device, with its containers; its `notes` say what was passed over on the way.
    public func app(_ bundleIdentifier: String, on device: SimulatorDevice) throws(SimulatorError) -> SimulatorApp {
        let containers = SimulatorContainers.read(device)
        guard containers.appIdentifiers.contains(bundleIdentifier) else {
            if let legacy = containers.legacy[bundleIdentifier] {
                throw .legacyLayout(app: bundleIdentifier, device: device, folder: legacy.data)
            }
            if !containers.notes.isEmpty {
                throw .appNotReadable(app: bundleIdentifier, device: device, notes: containers.notes.map(\.description))
            }
            let ids = containers.apps().map(\.bundleIdentifier)
            throw .appNotInstalled(
                app: bundleIdentifier, device: device,
                nearest: EditDistance.nearest(to: bundleIdentifier, among: ids, limit: 3))
        }
        let app = containers.app(bundleIdentifier)
        guard app.dataContainer != nil else { throw .appHasNoData(app: bundleIdentifier, device: device) }
        return app.adding(notes: containers.notes)
    }
}

extension SimulatorDevice {
    /// Runtimes sort by platform, then version as numbers (iOS 9 before iOS 17).
    fileprivate var runtimeOrder: [String] {
        runtime.split(whereSeparator: { $0 == " " || $0 == "." }).map { part in
            part.allSatisfy(\.isNumber) ? String(repeating: "0", count: max(0, 6 - part.count)) + part : String(part)
        }
    }
}

extension SimulatorApp {
    /// The data container's size as `du` counts it; nil when there is none or it cannot be read.
    public func dataContainerSize(threads: Int = 2) -> SizeTotal? {
        guard let dataContainer else { return nil }
        return try? InventoryScanner.scan(root: dataContainer, options: ScanOptions(threads: threads)).totals.onDisk
    }
}

/// An app on a simulator device, as the command line names it: `--simulator DEVICE --app ID [--device-set DIR]`.
/// Resolved when used, not when parsed: reinstalling an app gives its containers new folders.
public struct SimulatorTarget: Sendable, Equatable {
    /// The device set; nil means Xcode's default set of the user.
    public let deviceSetPath: String?
    /// A UDID, a device name or `booted`.
    public let device: String
    public let bundleIdentifier: String

    public init(deviceSetPath: String?, device: String, bundleIdentifier: String) {
        (self.deviceSetPath, self.device, self.bundleIdentifier) = (deviceSetPath, device, bundleIdentifier)
    }

    public func resolve() throws(SimulatorError) -> (device: SimulatorDevice, app: SimulatorApp) {
        let set = try DeviceSet.open(deviceSetPath)
        let device = try set.device(matching: self.device)
        return (device, try set.app(bundleIdentifier, on: device))
    }
}
