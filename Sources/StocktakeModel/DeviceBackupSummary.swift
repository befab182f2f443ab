/// What a device backup (Finder, iTunes, `idevicebackup2`) holds for one app, from its `Manifest.db`: the app's
/// own domain and its App Group and extension domains. Sizes are the manifest's logical sizes; a backup records
/// no allocation, so allocated bytes are an estimate (each file rounded up to whole 4 KiB APFS blocks).
public struct DeviceBackupSummary: Sendable, Equatable {
    /// One backup domain (`AppDomain-…`, `AppDomainGroup-…`, `AppDomainPlugin-…`).
    public struct Domain: Sendable, Equatable {
        public enum Kind: String, Sendable, CaseIterable {
            /// `AppDomain-<bundle id>`: the app's data container.
            case app
            /// `AppDomainGroup-<group id>`: an App Group container.
            case appGroup
            /// `AppDomainPlugin-<extension id>`: an app extension's data container.
            case plugin
        }

        public let name: String
        public let kind: Kind
        /// The bundle, group or extension id after the domain's prefix.
        public let identifier: String
        /// Non-directory records (regular files and symbolic links, as Stocktake's totals count files); bytes are
        /// their manifest sizes.
        public let total: SizeTotal
        /// How many of `total.files` are symbolic links (`Files.flags` 4; the rest are flags 1).
        public let symlinks: Int
        /// Directory records (`Files.flags` 2), the domain's root record left out.
        public let directories: Int

        public init(
            name: String, kind: Kind, identifier: String, total: SizeTotal, symlinks: Int = 0, directories: Int = 0
        ) {
            self.name = name
            self.kind = kind
            self.identifier = identifier
            self.total = total
            self.symlinks = symlinks
            self.directories = directories
        }
    }

    /// How the backup was used: as the audited input, or as evidence for a walked container export.
    public enum Role: String, Sendable { case input, evidence }

    public let path: String
    public let role: Role
    public let app: Domain
    /// Its App Group and extension domains.
    public let companions: [Domain]
    /// Always true: allocated bytes are estimated from the manifest's logical sizes (4 KiB blocks).
    public var allocatedBytesEstimated: Bool { true }
    /// `Manifest.plist` `Lockdown.ProductVersion` (the iOS version), when present.
    public let productVersion: String?
    /// When the backup was made (`Status.plist` or `Manifest.plist` `Date`), seconds since 1970, when present.
    public let date: Int64?
    /// With `--backup`: the app's files (non-directory) in the backup that the export does not hold.
    public let notInExport: Int?

    public init(
        path: String, role: Role, app: Domain, companions: [Domain], productVersion: String? = nil, date: Int64? = nil,
        notInExport: Int? = nil
    ) {
        self.path = path
        self.role = role
        self.app = app
        self.companions = companions
        self.productVersion = productVersion
        self.date = date
        self.notInExport = notInExport
    }

    /// The estimate of what a file of `bytes` occupies on the device: whole 4 KiB APFS blocks.
    public static func estimatedAllocation(_ bytes: Int64) -> Int64 {
        guard bytes > 0 else { return 0 }
        let (rounded, overflow) = (bytes / 4096 + (bytes % 4096 == 0 ? 0 : 1)).multipliedReportingOverflow(by: 4096)
        return overflow ? .max : rounded
    }
}
