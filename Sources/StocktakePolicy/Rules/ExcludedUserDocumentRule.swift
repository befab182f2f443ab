import StocktakeModel

/// User documents excluded from backup: a restore from iCloud or a computer brings the app back without them.
struct ExcludedUserDocumentRule: Rule {
    static let description = RuleDescription(
        id: "excluded-user-document", title: "User documents excluded from backup",
        finds: "items in Documents excluded from backup: user data a restore would lose",
        rationale: """
            The iOS Data Storage Guidelines: "Only documents and other data that is user-generated, or that cannot \
            otherwise be recreated by your application, should be stored in the <Application_Home>/Documents \
            directory and will be automatically backed up"; the "do not back up" attribute is for "data that can \
            be recreated but needs to persist". Apple's isExcludedFromBackup documentation adds: "This property is \
            only useful for excluding cache and other application support files which are not needed in a \
            backup. Some operations commonly made to user documents will cause this property to be reset to \
            false and so this property should not be used on user documents." An excluded document is lost on \
            restore or a move to a new device. Databases, caches and other internals in Documents are left to \
            documents-hidden-data.
            """,
        source: """
            \(Guidance.dataStorage) \
            https://developer.apple.com/documentation/foundation/urlresourcevalues/1780002-isexcludedfrombackup \
            \(Guidance.qa1719)
            """,
        defaultSeverity: .warning,
        fix: """
            Stop setting isExcludedFromBackup on user documents and clear it on existing ones; if the data can be \
            re-created or downloaded again, it is not a user document: move it to Library/Caches, or to an \
            excluded folder in Library/Application Support if it must survive low storage.
            """,
        examples: [
            RuleExample("An excluded folder of exports (one finding) and a single excluded PDF", expectedFindings: 2) {
                builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Documents/Exports", type: .directory, backup: .excluded, evidence: .xattr)
                builder.add("Documents/Exports/a.txt", apparentBytes: 2000)
                builder.add("Documents/Exports/b.txt", apparentBytes: 2000, backup: .excluded, evidence: .xattr)
                builder.add("Documents/Scan.pdf", apparentBytes: 30000, backup: .excluded, evidence: .appleDouble)
                builder.add("Documents/Notes.txt", apparentBytes: 300)
            },
            RuleExample("Backed-up documents and excluded data elsewhere", expectedFindings: 0) { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Documents/Notes.txt", apparentBytes: 300)
                // Its attributes could not be read: what the walk then says.
                builder.add(
                    "Documents/Received/Invoice.pdf", apparentBytes: 30000, backup: .unknown, evidence: .noEvidence)
                builder.add(
                    "Library/Application Support/Stickers", type: .directory, backup: .excluded, evidence: .appleDouble)
                builder.add("Library/Application Support/Stickers/s1.png", apparentBytes: 900)
            },
            RuleExample(
                "An excluded image cache in Documents is re-creatable, not a user document", expectedFindings: 0
            ) { builder in
                builder.add("Documents/ImageCache", type: .directory, backup: .excluded, evidence: .xattr)
                builder.add("Documents/ImageCache/a1.jpg", apparentBytes: 900)
                builder.add("Documents/search.sqlite", apparentBytes: 8192, backup: .excluded, evidence: .legacyXattr)
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        guard let documents = inventory.containerFolder("Documents") else { return [] }
        var findings: [RuleFinding] = []
        // Top-down, so the highest excluded item of each branch is reported and its contents are not: a flagged
        // folder once, an individually flagged file once, Documents itself when something above flags it.
        var pending = [documents]
        while let index = pending.popLast() {
            let entry = inventory.entries[Int(index)]
            if !entry.isAppsOwn { continue }
            if index != documents && HiddenDocumentData.classify(index, in: inventory) != nil { continue }
            if entry.backup == .excluded {
                findings.append(finding(index, inventory))
            } else if entry.isDirectory {
                pending.append(contentsOf: inventory.children(index).reversed())
            }
        }
        return findings
    }

    private func finding(_ index: Int32, _ inventory: Inventory) -> RuleFinding {
        let entry = inventory.entries[Int(index)]
        let how = entry.evidence == .legacyXattr ? " (through the deprecated com.apple.MobileBackup attribute)" : ""
        guard entry.isDirectory else {
            return RuleFinding(
                index: index,
                message:
                    "This document (\(ByteCount.format(entry.countedBytes))) is excluded from backup\(how), so restoring a backup or moving to a new device loses it: stop excluding user documents.",
                bytes: entry.countedBytes)
        }
        let total = inventory.directoryTotals[index] ?? .zero
        return RuleFinding(
            index: index,
            message:
                "This folder is excluded from backup\(how) with everything in it (\(total.filesAndBytes)), so restoring a backup or moving to a new device loses these documents: stop excluding user documents.",
            bytes: total.allocatedBytes)
    }
}
