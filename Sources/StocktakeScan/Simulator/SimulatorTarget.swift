/// An app on a simulator device, as the command line names it: `--simulator DEVICE --app ID [--device-set DIR]`.
/// Resolved when used, not when parsed: reinstalling an app gives its containers new folders.
public struct SimulatorTarget: Sendable, Equatable {
    /// The device set; nil means Xcode's default set of the user.
    public let deviceSetPath: String?
    /// A UDID, a device name or `booted`.
    public let device: String
    public let bundleIdentifier: String

    public init(deviceSetPath: String?, device: String, bundleIdentifier: String) {
        self.deviceSetPath = deviceSetPath
        self.device = device
        self.bundleIdentifier = bundleIdentifier
    }

    /// The device and the app's containers as they are now.
    public func resolve() throws(SimulatorError) -> (device: SimulatorDevice, app: SimulatorApp) {
        let set = try DeviceSet.open(deviceSetPath)
        let device = try set.device(matching: self.device)
        return (device, try set.app(bundleIdentifier, on: device))
    }
}
