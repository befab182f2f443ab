/// The figures every view shows (docs/reports.md, "Figures"): one name, one definition and one JSON key each, so the
/// terminal, the pages, Markdown, the diff and the history all say the same thing with the same words.
/// Sizes are allocated bytes unless a view says "apparent"; every file count leaves folders and transport
/// artefacts out, except On disk's, which counts every entry (as `du` does).
public enum Figure: String, CaseIterable, Sendable {
    case onDisk, appData, documentsAndData, purgeable, backedUp, excludedByApp, excludedByIOS, backupUnknown
    case folders, transportArtefacts

    public var name: String {
        switch self {
        case .onDisk: "On disk"
        case .appData: "App data"
        case .documentsAndData: "Documents & Data"
        case .purgeable: "Purgeable"
        case .backedUp: "Backed up"
        case .excludedByApp: "Excluded by the app"
        case .excludedByIOS: "Excluded by iOS"
        case .backupUnknown: "Backup unknown"
        case .folders: "Folders"
        case .transportArtefacts: "Transport artefacts"
        }
    }

    public var definition: String {
        switch self {
        case .onDisk:
            "Everything under the container root: the app's files, its folders and any transport artefacts, hard "
                + "links once. Equals `du -s -B1` on the same tree; its count is every entry."
        case .appData: "The app's files (not folders, not transport artefacts): the sum of the locations."
        case .documentsAndData:
            "App data outside Caches and tmp: what Settings ▸ General ▸ iPhone Storage shows as Documents & Data."
        case .purgeable: "App data in Caches and tmp: what iOS may delete when the device runs short of space."
        case .backedUp: "App data that goes into iCloud and computer backups."
        case .excludedByApp:
            "App data the app excluded from backup: the file or a folder above it carries the exclusion flag."
        case .excludedByIOS: "App data iOS never backs up because of where it lives (Caches, tmp, SplashBoard, …)."
        case .backupUnknown:
            "App data in a backed-up place whose flag cannot be known: the export kept no extended attributes."
        case .folders: "Folders, the container root included; their own blocks count in On disk only."
        case .transportArtefacts:
            "AppleDouble `._` sidecars and `__MACOSX/` that copying added: evidence of backup flags, not app data."
        }
    }

    /// Where the figure is in `report.json`.
    public var jsonKey: String {
        switch self {
        case .folders: "totals.directories"
        default: "totals." + (backupState.map { "backup." + $0.rawValue } ?? rawValue)
        }
    }

    private var backupState: BackupState? { BackupState.allCases.first { Figure(backup: $0) == self } }

    /// The figure for one backup state.
    public init(backup state: BackupState) {
        switch state {
        case .included: self = .backedUp
        case .excluded: self = .excludedByApp
        case .excludedBySystem: self = .excludedByIOS
        case .unknown: self = .backupUnknown
        }
    }

    /// The figure's value in a container's totals.
    public func total(in totals: InventoryTotals) -> SizeTotal {
        if let backupState { return totals.backup[backupState] ?? .zero }
        switch self {
        case .onDisk: return totals.onDisk
        case .appData: return totals.appData
        case .documentsAndData: return totals.documentsAndData
        case .purgeable: return totals.purgeable
        case .folders: return totals.directories
        default: return totals.transportArtefacts
        }
    }

    /// The backup figures in reading order.
    public static let backup: [Figure] = [.backedUp, .excludedByApp, .excludedByIOS, .backupUnknown]
}

extension BackupState {
    /// One entry's state in a row of a table, in the glossary's words: "backed up", "excluded by iOS".
    public var label: String {
        let name = Figure(backup: self).name
        return name.prefix(1).lowercased() + name.dropFirst()
    }
}
