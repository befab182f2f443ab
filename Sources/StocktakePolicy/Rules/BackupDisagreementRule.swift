import StocktakeModel

/// Where a device backup (`--backup`) contradicts what the export predicted: a file flagged for exclusion (or in a
/// place iOS never backs up) that the backup holds, or a file predicted backed up that the backup lacks.
struct BackupDisagreementRule: Rule {
    static let description = RuleDescription(
        id: "backup-disagreement", title: "Device backup contradicts the export's backup flags",
        finds: """
            with `--backup`: a file the export flags excluded (or keeps where iOS never backs up) that the device \
            backup holds, or one predicted backed up that it lacks
            """,
        rationale: """
            Without a backup, Stocktake predicts each file's backup state from its exclusion flag (the \
            `NSURLIsExcludedFromBackupKey` extended attribute) and Apple's rules for each location. A device backup \
            of the same device is the ground truth: what iOS backed up is in its Manifest.db. When the two disagree, \
            one of them is stale or the flag does not do what the app expects: a flag set after the backup was made \
            (or set on a copy the device never saw), a flag an app update removed, or a file excluded some other way \
            that the export lost. The Data Storage Guidelines ask apps to keep re-creatable data out of backups and \
            user data in them; this finding shows where the app's intent and the device's behaviour part.
            """,
        source: "\(Guidance.dataStorage) https://developer.apple.com/library/archive/qa/qa1719/_index.html",
        defaultSeverity: .warning,
        fix: """
            Compare a backup and an export made at the same time. If the backup holds a file the app flags, set \
            the flag where the file is created (and again after every replace: atomic writes make a new file); if \
            the backup lacks a file that should survive a restore, find what excludes it (a flagged parent folder, \
            a location iOS never backs up) and move it to Documents or Library/Application Support.
            """,
        examples: [
            RuleExample("a flagged cache the backup holds, and a database it lacks", expectedFindings: 2) { builder in
                builder.add(
                    "Library/Application Support/thumbs/1.jpg", apparentBytes: 9_000, backup: .included,
                    evidence: .deviceBackup, flags: .backupDisagrees)
                builder.add(
                    "Library/Application Support/store.sqlite", apparentBytes: 90_000, backup: .excluded,
                    evidence: .deviceBackup, flags: .backupDisagrees)
            },
            RuleExample(
                "a flagged folder the backup lacks: one finding for the folder, not one per file", expectedFindings: 1
            ) { builder in
                builder.add(
                    "Documents/Downloads", type: .directory, backup: .excluded, evidence: .deviceBackup,
                    flags: .backupDisagrees)
                builder.add(
                    "Documents/Downloads/a.mp4", apparentBytes: 9_000, backup: .excluded, evidence: .deviceBackup,
                    flags: .backupDisagrees)
                builder.add(
                    "Documents/Downloads/b.mp4", apparentBytes: 9_000, backup: .excluded, evidence: .deviceBackup,
                    flags: .backupDisagrees)
            },
            RuleExample("backup and export agree", expectedFindings: 0) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 100, backup: .included, evidence: .deviceBackup)
                builder.add(
                    "Library/Caches/feed.json", apparentBytes: 100, backup: .excludedBySystem, evidence: .deviceBackup)
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        return inventory.findings { index, entry in
            guard entry.flags.contains(.backupDisagrees) else { return nil }
            // The topmost entry of a disagreeing subtree speaks for what lies beneath it.
            let parent = entry.parent >= 0 ? inventory.entries[Int(entry.parent)] : nil
            if let parent, parent.flags.contains(.backupDisagrees), parent.backup == entry.backup { return nil }
            let bytes = entry.isDirectory ? inventory.directoryTotals[index]?.allocatedBytes : entry.allocatedBytes
            return RuleFinding(index: index, message: Self.message(entry), bytes: bytes)
        }
    }

    private static func message(_ entry: Entry) -> String {
        let what = entry.isDirectory ? "This folder" : "This file"
        return entry.backup == .included
            ? "\(what) is in the device backup, though the export predicts it excluded (an exclusion flag on it or a folder above it, or a place iOS does not back up): the flag was set after the backup or only on the exported copy, or the place is backed up after all."
            : "\(what) is missing from the device backup, though the export predicts it backed up (no exclusion flag, a backed-up location): something else excludes it, or it is newer than the backup."
    }
}
