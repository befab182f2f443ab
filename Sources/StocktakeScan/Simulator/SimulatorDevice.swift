import StocktakeModel
import StocktakePropertyLists

/// One CoreSimulator device, as its `device.plist` describes it.
public struct SimulatorDevice: Sendable, Equatable {
    public let udid: String
    public let name: String
    /// `com.apple.CoreSimulator.SimRuntime.iOS-17-5`.
    public let runtimeIdentifier: String
    /// `com.apple.CoreSimulator.SimDeviceType.iPhone-15`.
    public let deviceTypeIdentifier: String
    public let state: State
    /// The device's folder: `<device set>/<UDID>`.
    public let path: String

    /// CoreSimulator's device states, numbered as `device.plist` stores them.
    public enum State: Sendable, Equatable {
        case creating, shutdown, booting, booted, shuttingDown
        case unknown(Int64)

        init(_ number: Int64) {
            switch number {
            case 0: self = .creating
            case 1: self = .shutdown
            case 2: self = .booting
            case 3: self = .booted
            case 4: self = .shuttingDown
            default: self = .unknown(number)
            }
        }

        /// As `xcrun simctl list` prints it.
        public var name: String {
            switch self {
            case .creating: "Creating"
            case .shutdown: "Shutdown"
            case .booting: "Booting"
            case .booted: "Booted"
            case .shuttingDown: "Shutting Down"
            case .unknown(let number): "Unknown (\(number))"
            }
        }
    }

    /// `iOS 17.5` from `com.apple.CoreSimulator.SimRuntime.iOS-17-5`; the identifier itself when it has another shape.
    public var runtime: String {
        Self.readable(runtimeIdentifier, prefix: "com.apple.CoreSimulator.SimRuntime.") { tail in
            guard let dash = tail.firstIndex(of: "-") else { return tail }
            return String(tail[..<dash]) + " " + String(tail[tail.index(after: dash)...]).replacing("-", with: ".")
        }
    }

    /// `iPhone 15 Pro` from `com.apple.CoreSimulator.SimDeviceType.iPhone-15-Pro`.
    public var deviceType: String {
        Self.readable(deviceTypeIdentifier, prefix: "com.apple.CoreSimulator.SimDeviceType.") {
            $0.replacing("-", with: " ")
        }
    }

    /// Reads `plist` (the folder's `device.plist`, checked to be no link); nil when it names no UDID.
    static func read(folder: String, plist path: String) throws(PropertyListError) -> SimulatorDevice? {
        let plist = try PropertyListReader.read(contentsOfFile: path, maxBytes: PropertyListReader.metadataLimit)
        guard let udid = plist["UDID"]?.stringValue, !udid.isEmpty else { return nil }
        return SimulatorDevice(
            udid: udid, name: plist["name"]?.stringValue ?? udid,
            runtimeIdentifier: plist["runtime"]?.stringValue ?? "",
            deviceTypeIdentifier: plist["deviceType"]?.stringValue ?? "",
            state: State(plist["state"]?.integerValue ?? -1),
            path: folder)
    }

    private static func readable(_ identifier: String, prefix: String, _ transform: (String) -> String) -> String {
        identifier.hasPrefix(prefix) ? transform(String(identifier.dropFirst(prefix.count))) : identifier
    }
}
