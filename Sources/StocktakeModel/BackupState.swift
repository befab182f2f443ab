/// Whether iOS backs an entry up (contract values).
public enum BackupState: String, CaseIterable, Sendable, Codable {
    /// The location is never backed up (Caches, tmp, SplashBoard, SystemData, …).
    case excludedBySystem
    /// The entry or its nearest flagged ancestor carries the backup-exclusion flag.
    case excluded
    /// Backed-up location, no flag, and the export is known to carry extended attributes (or the place is one
    /// real device backups always hold).
    case included
    /// Backed-up location, no flag, and nothing shows the export kept extended attributes.
    case unknown
}

/// Why an entry has its backup state (contract values).
public enum BackupEvidence: String, CaseIterable, Sendable, Codable {
    /// The location decides: iOS never backs it up.
    case location
    /// The entry's own `com.apple.metadata:com_apple_backup_excludeItem` xattr (any namespace).
    case xattr
    /// The entry's own legacy `com.apple.MobileBackup` xattr (iOS 5.0.1).
    case legacyXattr
    /// An AppleDouble sidecar (`._name` or `__MACOSX/…/._name`) carrying one of the two attributes.
    case appleDouble
    /// Inherited from the nearest flagged ancestor directory (see `excludedBy`).
    case ancestor
    /// No flag anywhere up the tree, and the export is known to carry extended attributes.
    case noFlag
    /// No flag found, but the export shows no sign of having kept extended attributes.
    case noEvidence
    /// No flag found, in a place iOS makes and real device backups hold (Cookies, WebKit; see `SystemCatalogue`).
    case systemLocation
    /// A device backup decides: the entry is in it (`included`) or is not (`excluded`, `excludedBySystem`).
    case deviceBackup
}

/// Where a flag was found on one entry (before inheritance).
public enum ExclusionFlag: UInt8, Sendable {
    case none = 0
    case xattr, legacyXattr, appleDouble

    public var evidence: BackupEvidence? {
        switch self {
        case .none: nil
        case .xattr: .xattr
        case .legacyXattr: .legacyXattr
        case .appleDouble: .appleDouble
        }
    }
}
