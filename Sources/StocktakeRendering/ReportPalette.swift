import StocktakeModel

/// The colours of the charts. The bar segments and the legend swatches both take their colour from here,
/// so a location always has the same colour everywhere on the page.
public enum ReportPalette {
    public static func colour(_ location: Location) -> String {
        switch location {
        case .documents: "#2563eb"
        case .applicationSupport: "#7c3aed"
        case .caches: "#f59e0b"
        case .tmp: "#ec4899"
        case .preferences: "#10b981"
        case .libraryOther: "#06b6d4"
        case .systemData: "#475569"
        case .other: "#84cc16"
        }
    }

    /// The folders' own blocks (what `du` adds for directories).
    public static let folders = "#cbd5e1"
    /// AppleDouble sidecars and `__MACOSX/`.
    public static let transport = "#a8a29e"

    public static func colour(_ state: BackupState) -> String {
        switch state {
        case .included: "#16a34a"
        case .excluded: "#0ea5e9"
        case .excludedBySystem: "#94a3b8"
        case .unknown: "#fbbf24"
        }
    }

    public static func explanation(_ state: BackupState) -> String {
        switch state {
        case .included: "Backed-up location, no exclusion flag, and the export is known to keep flags."
        case .excluded: "The file or a folder above it carries the backup-exclusion flag."
        case .excludedBySystem: "iOS never backs this location up (Caches, tmp, SplashBoard, …)."
        case .unknown: "Backed-up location and no flag found, but the export may have dropped flags."
        }
    }
}
