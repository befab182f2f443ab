import StocktakeModel

/// Databases, plists, logs, lock files, dotfiles, caches and SDK folders in Documents: internals a user would
/// not recognise, in the one folder meant for their own documents.
struct DocumentsHiddenDataRule: Rule {
    static let description = RuleDescription(
        id: "documents-hidden-data", title: "App internals in Documents",
        finds: """
            files in Documents a user would not recognise: databases and sidecars, plists, logs, lock files, \
            dotfiles, caches, SDK folders
            """,
        rationale: """
            Apple's File System Programming Guide: Documents is for "user-generated content" and "should only \
            contain files that you may wish to expose to the user", because it "can be made available to the user \
            through file sharing"; files that are not user data belong in Library ("Put app-created support files \
            in the Library/Application support/ directory", data caches in Library/Caches). With \
            UIFileSharingEnabled or LSSupportsOpeningDocumentsInPlace, Documents shows in the Files app and \
            Finder, where users can open, rename or delete a database, a log or a lock file and break the app \
            (Tech Talk 204: Documents is "User-visible content"). Documents/Inbox is managed by the system and \
            left alone. The severity is error when the app bundle says Documents is exposed, warning otherwise.
            """,
        source: """
            \(Guidance.fileSystemGuideArchive) \
            https://developer.apple.com/documentation/bundleresources/information-property-list/uifilesharingenabled \
            https://developer.apple.com/videos/play/tech-talks/204/
            """,
        defaultSeverity: .warning, severityNote: "error when Documents is exposed",
        fix: """
            Keep databases, plists, lock files and internal state in Library/Application Support, logs and caches \
            in Library/Caches (or tmp), and point SDKs at Library instead of Documents; migrate existing files on \
            the next launch.
            """,
        examples: [
            RuleExample("A SQLite store with its WAL, a log and a dotfile in Documents", expectedFindings: 4) {
                builder in
                builder.add("Documents/index.sqlite", apparentBytes: 8192)
                builder.add("Documents/index.sqlite-wal", apparentBytes: 4096)
                builder.add("Documents/debug.log", apparentBytes: 100)
                builder.add("Documents/.sync_state.json", apparentBytes: 20)
            },
            RuleExample(
                "Exposed Documents with a lock file and an SDK folder: one finding each", expectedFindings: 2,
                documentsExposed: true
            ) { builder in
                builder.add("Documents/sync.lock", apparentBytes: 0)
                builder.add("Documents/Crashlytics/report-1.clsrecord", apparentBytes: 900)
                builder.add("Documents/Crashlytics/report-2.clsrecord", apparentBytes: 900)
            },
            RuleExample("A cache folder and a hidden folder: one finding per folder", expectedFindings: 2) { builder in
                builder.add("Documents/ImageCache/a1b2.jpg", apparentBytes: 5000)
                builder.add("Documents/ImageCache/c3d4.jpg", apparentBytes: 5000)
                builder.add("Documents/.Trash/old.pdf", apparentBytes: 5000)
            },
            RuleExample(
                "User documents, a custom document type holding SQLite, and files in Inbox", expectedFindings: 0
            ) { builder in
                builder.add("Documents/Exports/Chat with Family.txt", apparentBytes: 2000)
                builder.add("Documents/Received Files/Invoice.pdf", apparentBytes: 30000)
                builder.add("Documents/Trip.mapdoc", apparentBytes: 8192, kind: .sqlite)
                builder.add("Documents/Inbox/settings.plist", apparentBytes: 300)
                builder.add("Documents/Inbox/shared.sqlite", apparentBytes: 8192)
            },
            RuleExample("AppleDouble sidecars travel with the export and are not the app's", expectedFindings: 0) {
                builder in
                builder.add("Documents/Invoice.pdf", apparentBytes: 30000)
                builder.add(
                    "Documents/._Invoice.pdf", apparentBytes: 4096, kind: .appleDouble, flags: .transportArtefact)
            },
            RuleExample("Empty folders named like caches or hidden ones hold nothing", expectedFindings: 0) { builder in
                builder.add("Documents/ImageCache", type: .directory)
                builder.add("Documents/.hidden", type: .directory)
                builder.add("Documents/.hidden/empty", type: .directory)
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        guard let documents = inventory.containerFolder("Documents") else { return [] }
        var findings: [RuleFinding] = []
        var pending = Array(inventory.children(documents).reversed())
        while let index = pending.popLast() {
            let entry = inventory.entries[Int(index)]
            if !entry.isAppsOwn { continue }
            // Documents/Inbox is where the system drops files other apps hand over: not the app's doing.
            if entry.parent == documents && inventory.name(index).elementsEqual("Inbox".utf8) { continue }
            guard let category = HiddenDocumentData.classify(index, in: inventory) else {
                if entry.isDirectory { pending.append(contentsOf: inventory.children(index).reversed()) }
                continue
            }
            // A folder holding no file (empty, or only empty folders) hides nothing and costs a few blocks.
            if category.isFolder && (inventory.directoryTotals[index]?.files ?? 0) == 0 { continue }
            findings.append(finding(index, category, inventory, exposed: context.documentsExposed))
        }
        return findings
    }

    private func finding(_ index: Int32, _ category: HiddenDocumentData, _ inventory: Inventory, exposed: Bool?)
        -> RuleFinding
    {
        var what = Self.noun(category)
        var bytes = inventory.entries[Int(index)].countedBytes
        if category.isFolder {
            let total = inventory.directoryTotals[index] ?? .zero
            bytes = total.allocatedBytes
            what += " (\(total.filesAndBytes))"
        }
        let message = "\(what) in Documents, \(Self.visibility(exposed)): \(Self.advice(category))."
        return RuleFinding(index: index, message: message, bytes: bytes, severity: exposed == true ? .error : nil)
    }

    private static func noun(_ category: HiddenDocumentData) -> String {
        switch category {
        case .database: "Database file"
        case .propertyList: "Property list"
        case .log: "Log file"
        case .lock: "Lock file"
        case .dotfile: "Hidden file"
        case .hiddenFolder: "Hidden folder"
        case .sdkFolder: "SDK folder"
        case .cacheFolder: "Cache folder"
        case .databaseFolder: "Database management folder"
        }
    }

    private static func visibility(_ exposed: Bool?) -> String {
        switch exposed {
        case true?:
            "which this app shows to the user in the Files app and Finder file sharing, where it can be deleted or edited"
        case false?: "the folder meant for the user's own documents (and backed up)"
        case nil: "the folder meant for the user's own documents, visible to the user if the app enables file sharing"
        }
    }

    private static func advice(_ category: HiddenDocumentData) -> String {
        switch category {
        case .database, .databaseFolder: "move the store to Library/Application Support"
        case .propertyList, .dotfile, .hiddenFolder: "move this internal state to Library/Application Support"
        case .log: "write logs to Library/Caches or tmp"
        case .lock: "keep lock files in Library/Application Support or tmp"
        case .sdkFolder: "configure the SDK to write to Library/Application Support or Library/Caches"
        case .cacheFolder: "move re-creatable data to Library/Caches"
        }
    }
}
