/// Whether iOS backs up an entry of an export, from its place and flags: the walk's rule (through `BackupResolver`),
/// which `InventoryBuilder` follows too. The place first, then the entry's own flag, then the nearest flagged
/// ancestor, and only then "included" (with evidence that the export carries attributes, or for a place iOS is
/// known to back up) or "unknown".
public enum ExportBackup {
    /// The state, its evidence and the flagged ancestor it comes from (-1: none). `flaggedAncestor`: the nearest
    /// strict ancestor carrying its own flag, or -1.
    public static func decide(
        zone: Zone, ownFlag: ExclusionFlag, flaggedAncestor: Int32, attributesUnreadable: Bool, carriesAttributes: Bool
    ) -> (BackupState, BackupEvidence, Int32) {
        if zone.excludedBySystem { return (.excludedBySystem, .location, -1) }
        if let own = ownFlag.evidence { return (.excluded, own, -1) }
        if flaggedAncestor >= 0 { return (.excluded, .ancestor, flaggedAncestor) }
        if attributesUnreadable { return (.unknown, .noEvidence, -1) }
        // Cookies, WebKit: real device backups hold them, attributes or not.
        if zone.backedUpBySystem && !carriesAttributes { return (.included, .systemLocation, -1) }
        return carriesAttributes ? (.included, .noFlag, -1) : (.unknown, .noEvidence, -1)
    }
}
