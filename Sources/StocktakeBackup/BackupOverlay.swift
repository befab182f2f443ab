import StocktakeModel

/// A device backup laid over a walked container export: each entry's backup state comes from the backup, and where
/// the export predicted otherwise it is marked `backupDisagrees`. Sizes stay the export's.
package struct BackupOverlay: Sendable {
    /// Relative to the domain root, directories included.
    private var backedUp = Set<[UInt8]>()
    private var backedUpFiles: [[UInt8]] = []
    /// Files the backup records with data protection class None.
    private var unprotected = Set<[UInt8]>()

    /// Every node of the app's domain is backed up; each path extends its parent's, so this is linear.
    package init(tree: DomainTree) {
        var nodePaths: [[UInt8]] = []
        nodePaths.reserveCapacity(tree.nodes.count)
        for node in tree.nodes {
            let path =
                node.parent < 0
                ? []
                : nodePaths[Int(node.parent)].isEmpty
                    ? node.name : nodePaths[Int(node.parent)] + [UInt8(ascii: "/")] + node.name
            nodePaths.append(path)
            guard node.parent >= 0 else { continue }
            backedUp.insert(path)
            guard node.record >= 0 else { continue }
            let record = tree.records[Int(node.record)]
            if record.isFileLike { backedUpFiles.append(path) }
            if record.type == .file && record.protectionClass == ManifestRecord.noProtection {
                unprotected.insert(path)
            }
        }
    }

    /// The export's inventory with the backup's states, the backed-up files it lacks, and its files of class None.
    package func apply(to inventory: Inventory, issues: [ScanIssue] = []) -> (
        inventory: Inventory, notInExport: Int, unprotected: Set<Int32>
    ) {
        var entries = inventory.entries
        var walked = Set<[UInt8]>()
        var unprotectedEntries = Set<Int32>()
        inventory.forEachInPathOrder { index, path in
            let i = Int(index)
            let entry = entries[i]
            if !entry.isDirectory { walked.insert(path) }
            if entry.type == .file && unprotected.contains(path) { unprotectedEntries.insert(index) }
            // Transport artefacts (AppleDouble sidecars, __MACOSX) are the export's, never the device's.
            guard !entry.flags.contains(.transportArtefact) else { return }
            // The root is the domain itself: in the backup whenever the app is, whatever the walk made of it.
            let (state, disagrees) =
                index == inventory.root ? (.included, false) : Self.state(entry, inBackup: backedUp.contains(path))
            var flags = entry.flags
            if disagrees { flags.insert(.backupDisagrees) } else { flags.remove(.backupDisagrees) }
            entries[i] = Entry(
                parent: entry.parent, nameOffset: entry.nameOffset, nameLength: entry.nameLength, type: entry.type,
                kind: entry.kind, location: entry.location, flags: flags, backup: state, evidence: .deviceBackup,
                apparentBytes: entry.apparentBytes, allocatedBytes: entry.allocatedBytes, modified: entry.modified,
                excludedBy: -1)
        }
        let old = inventory.evidence
        let evidence = ExportEvidence(
            entriesWithAttributes: old.entriesWithAttributes, appleDoubleSidecars: old.appleDoubleSidecars,
            flaggedByXattr: old.flaggedByXattr, flaggedByLegacyXattr: old.flaggedByLegacyXattr,
            flaggedByAppleDouble: old.flaggedByAppleDouble, declaredByUser: old.declaredByUser,
            decidedByDeviceBackup: true)
        let result = Inventory(
            entries: entries, names: inventory.names, symlinkTargets: inventory.symlinkTargets,
            issues: inventory.issues + issues, evidence: evidence)
        return (result, backedUpFiles.count { !walked.contains($0) }, unprotectedEntries)
    }

    /// The backup's state for one entry, and whether the export's prediction said otherwise.
    static func state(_ entry: Entry, inBackup: Bool) -> (BackupState, disagrees: Bool) {
        if inBackup { return (.included, entry.backup == .excluded || entry.backup == .excludedBySystem) }
        let state: BackupState =
            entry.backup == .excludedBySystem || entry.location.isPurgeable ? .excludedBySystem : .excluded
        return (state, entry.backup == .included)
    }
}
