/// The device a container was copied from for the audit (`audit --device`), and how: Xcode's `devicectl` copied
/// the app's container into a private temporary folder, which was removed when the audit ended.
public struct DeviceCopyDescription: Sendable, Equatable {
    /// The device's name as devicectl gives it (`deviceProperties.name`).
    public let name: String
    /// CoreDevice's identifier (a UUID), which devicectl takes as `--device`.
    public let identifier: String
    /// The hardware UDID, when devicectl gives it.
    public let udid: String?
    /// `iPhone 15 Pro`, else the product type (`iPhone16,1`), when given.
    public let model: String?
    public let osVersion: String?
    /// What copied the data: `xcrun devicectl device copy from --domain-type appDataContainer --domain-identifier ID`.
    public let copiedWith: String

    public init(name: String, identifier: String, udid: String?, model: String?, osVersion: String?, copiedWith: String)
    {
        self.name = name
        self.identifier = identifier
        self.udid = udid
        self.model = model
        self.osVersion = osVersion
        self.copiedWith = copiedWith
    }
}
