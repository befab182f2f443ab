/// What the export shows about whether extended attributes (and so backup-exclusion flags) survived
/// the trip from the device. Without any of it, unflagged entries are `unknown`, never `included`.
public struct ExportEvidence: Sendable, Equatable {
    /// Entries carrying at least one extended attribute that came with the export (not `security.*`).
    public let entriesWithAttributes: Int
    /// AppleDouble sidecars (`._name`, `__MACOSX/`) that parsed as such.
    public let appleDoubleSidecars: Int
    /// Entries whose own flag marks them excluded, by carrier.
    public let flaggedByXattr: Int
    public let flaggedByLegacyXattr: Int
    public let flaggedByAppleDouble: Int
    /// The user said the export pipeline keeps extended attributes (`--xattrs-preserved`).
    public let declaredByUser: Bool
    /// A device backup's manifest gave every backup state (`stocktake audit BACKUP --app`, or `--backup`).
    public let decidedByDeviceBackup: Bool

    public init(
        entriesWithAttributes: Int = 0, appleDoubleSidecars: Int = 0, flaggedByXattr: Int = 0,
        flaggedByLegacyXattr: Int = 0, flaggedByAppleDouble: Int = 0, declaredByUser: Bool,
        decidedByDeviceBackup: Bool = false
    ) {
        self.decidedByDeviceBackup = decidedByDeviceBackup
        self.entriesWithAttributes = entriesWithAttributes
        self.appleDoubleSidecars = appleDoubleSidecars
        self.flaggedByXattr = flaggedByXattr
        self.flaggedByLegacyXattr = flaggedByLegacyXattr
        self.flaggedByAppleDouble = flaggedByAppleDouble
        self.declaredByUser = declaredByUser
    }

    /// Whether the export is known to carry attributes, so "no flag" can mean "included".
    public var carriesAttributes: Bool { entriesWithAttributes > 0 || appleDoubleSidecars > 0 || declaredByUser }

    /// One-line statement for reports.
    public var summary: String {
        if decidedByDeviceBackup {
            return
                "backup states from a device backup's Manifest.db: what it holds is included, what it lacks is excluded"
        }
        var sources: [String] = []
        if entriesWithAttributes > 0 {
            sources.append(Plural.count(entriesWithAttributes, "entry", "entries") + " with extended attributes")
        }
        if appleDoubleSidecars > 0 { sources.append("\(appleDoubleSidecars) AppleDouble sidecars") }
        if declaredByUser { sources.append("--xattrs-preserved") }
        guard !sources.isEmpty else {
            return "no extended attributes or AppleDouble sidecars: unflagged entries are unknown"
        }
        return "export carries attributes (" + sources.joined(separator: ", ") + ")"
    }
}
