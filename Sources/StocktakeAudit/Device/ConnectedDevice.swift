import StocktakeModel

package struct ConnectedDevice: Sendable, Equatable {
    /// CoreDevice's identifier, which devicectl takes as `--device`.
    package let identifier: String
    package let name: String
    package let udid: String?
    /// `iPhone 15 Pro`, else the product type (`iPhone16,1`).
    package let model: String?
    package let osVersion: String?
    package let platform: String?
    /// `paired`, `unpaired`, … as devicectl says; nil when it does not.
    package let pairingState: String?
    /// `enabled`, `disabled`; nil when devicectl does not say (before iOS 16 there was no Developer Mode).
    package let developerMode: String?
    package let tunnelState: String?
    package let transport: String?

    init?(_ device: DevicectlOutput.Device) {
        guard let identifier = device.identifier, !identifier.isEmpty else { return nil }
        self.identifier = identifier
        name = device.deviceProperties?.name ?? identifier
        udid = device.hardwareProperties?.udid
        model = device.hardwareProperties?.marketingName ?? device.hardwareProperties?.productType
        osVersion = device.deviceProperties?.osVersionNumber
        platform = device.hardwareProperties?.platform
        pairingState = device.connectionProperties?.pairingState
        developerMode = device.deviceProperties?.developerModeStatus
        tunnelState = device.connectionProperties?.tunnelState
        transport = device.connectionProperties?.transportType
    }

    /// Whether `query` names this device: its identifier or UDID (either case), or its name exactly.
    func isNamed(_ query: String) -> Bool {
        identifier.caseInsensitiveCompare(query) == .orderedSame
            || udid.map { $0.caseInsensitiveCompare(query) == .orderedSame } == true || name == query
    }

    /// `Anna's iPhone (iPhone 15 Pro, iOS 17.5, 00008130-…)` for one-line messages.
    package var title: String {
        let details = [model, osVersion.map { "\(platform ?? "iOS") \($0)" }, udid ?? identifier].compactMap { $0 }
        return "\(name) (\(details.joined(separator: ", ")))"
    }
}

package struct InstalledApp: Sendable, Equatable {
    package let bundleIdentifier: String
    package let name: String?
    package let version: String?
    package let bundleVersion: String?
    /// Development-signed (installed from Xcode): only such an app's containers can be copied.
    package let builtByDeveloper: Bool
    package let hidden: Bool

    init?(_ app: DevicectlOutput.App) {
        guard let identifier = app.bundleIdentifier, !identifier.isEmpty else { return nil }
        bundleIdentifier = identifier
        name = app.name
        version = app.version
        bundleVersion = app.bundleVersion
        builtByDeveloper = app.builtByDeveloper ?? false
        hidden = app.hidden ?? false
    }
}
