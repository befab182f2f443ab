/// Positions in `allCases`, without building `allCases` or hashing: tables indexed by case (totals, the
/// JSON rows' pre-rendered fragments) look values up once per entry of a million-file audit.
extension Location {
    public var ordinal: Int {
        switch self {
        case .documents: 0
        case .applicationSupport: 1
        case .caches: 2
        case .tmp: 3
        case .preferences: 4
        case .libraryOther: 5
        case .systemData: 6
        case .other: 7
        }
    }
}

extension BackupState {
    public var ordinal: Int {
        switch self {
        case .excludedBySystem: 0
        case .excluded: 1
        case .included: 2
        case .unknown: 3
        }
    }
}

extension BackupEvidence {
    public var ordinal: Int {
        switch self {
        case .location: 0
        case .xattr: 1
        case .legacyXattr: 2
        case .appleDouble: 3
        case .ancestor: 4
        case .noFlag: 5
        case .noEvidence: 6
        case .systemLocation: 7
        case .deviceBackup: 8
        }
    }
}
