import StocktakeModel

/// Files straight in Library/ and Library folders of the app's own invention, outside the standard places.
struct LibraryRootFileRule: Rule {
    static let description = RuleDescription(
        id: "library-root-file", title: "Files outside Library's standard folders",
        finds: "files directly in `Library/` or in Library folders that are neither standard nor made by iOS",
        rationale: """
            Apple's File System Programming Guide: "Put app-created support files in the \
            Library/Application support/ directory" and data caches in Library/Caches; "In iOS, the app installer \
            creates only a few subdirectories in ~/Library (such as Caches and Preferences) and your app is \
            responsible for creating all others". A file directly in Library/, or a folder of the app's own next \
            to the standard ones, is backed up like Application Support but escapes the conventions that tools, \
            SDKs and clean-up code rely on, and is easy to forget in migrations. What iOS makes in Library itself \
            (SplashBoard, Saved Application State, SyncedPreferences, Cookies, HTTPStorages, WebKit, \
            LanguageModeling, Apple frameworks' com.apple.* folders: the catalogue in docs/reports.md) and Library/Sounds \
            (custom notification sounds) are not reported.
            """,
        source: """
            \(Guidance.fileSystemGuideArchive) \
            https://developer.apple.com/library/archive/documentation/FileManagement/Conceptual/FileSystemProgrammingGuide/MacOSXDirectories/MacOSXDirectories.html
            """,
        defaultSeverity: .warning,
        fix: """
            Move the file or folder into Library/Application Support (create it with \
            FileManager.url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)), \
            or into Library/Caches if it can be fetched or computed again; migrate existing copies on the next launch.
            """,
        examples: [
            RuleExample("A stray JSON file in Library and an app-made Library folder", expectedFindings: 2) { builder in
                builder.add("Library/feature_flags.json", apparentBytes: 800)
                builder.add("Library/Downloads/episode-1.mp4", apparentBytes: 50000)
                builder.add("Library/Downloads/episode-2.mp4", apparentBytes: 50000)
            },
            RuleExample("Standard and system-managed Library folders", expectedFindings: 0) { builder in
                builder.add("Library/Application Support/Messages.sqlite", apparentBytes: 8192)
                builder.add("Library/Caches/com.example.app/Cache.db", apparentBytes: 8192)
                builder.add("Library/Preferences/com.example.app.plist", apparentBytes: 400)
                builder.add("Library/SplashBoard/Snapshots/sceneID:com.example.app-default/a.ktx", apparentBytes: 9000)
                builder.add("Library/Saved Application State/com.example.app.savedState/data.data", apparentBytes: 100)
                builder.add("Library/Cookies/com.example.app.binarycookies", apparentBytes: 100)
                builder.add("Library/HTTPStorages/com.example.app/httpstorages.sqlite", apparentBytes: 8192)
                builder.add(
                    "Library/WebKit/com.example.app/WebsiteData/LocalStorage/x.localstorage", apparentBytes: 100)
                builder.add("Library/SyncedPreferences/com.example.app.plist", apparentBytes: 100)
                builder.add("Library/Sounds/chime.caf", apparentBytes: 3000)
            },
            RuleExample("The keyboard's lexicon and an Apple framework's folder (real layouts)", expectedFindings: 0) {
                builder in
                builder.add("Library/LanguageModeling/dynamic-lexicon.dat", apparentBytes: 2000)
                builder.add("Library/com.apple.iTunesStore/downloads.28.sqlitedb", apparentBytes: 8192)
            },
            RuleExample("An empty folder of the app's own in Library holds nothing to move", expectedFindings: 0) {
                builder in
                builder.add("Library/EmptyThing", type: .directory)
                builder.add("Library/EmptyThing/Nested", type: .directory)
            },
            RuleExample("An AppleDouble sidecar in Library is transport metadata", expectedFindings: 0) { builder in
                builder.add(
                    "Library/._Application Support", apparentBytes: 4096, kind: .appleDouble, flags: .transportArtefact)
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        return inventory.ownChildren(of: "Library").compactMap { index in
            let name = inventory.name(index)
            let entry = inventory.entries[Int(index)]
            // What iOS makes in Library (SystemCatalogue) is not the app's doing, flagged or not.
            if SystemCatalogue.isSystemLibraryFolder(name) { return nil }
            guard entry.isDirectory else {
                return RuleFinding(
                    index: index,
                    message:
                        "A file directly in Library/, outside every standard folder: move it to Library/Application Support, or Library/Caches if it can be fetched again.",
                    bytes: entry.countedBytes)
            }
            let total = inventory.directoryTotals[index] ?? .zero
            // An empty folder (or one of empty folders) holds nothing to move.
            guard !LibraryFolder.isStandard(name), total.files > 0 else { return nil }
            return RuleFinding(
                index: index,
                message:
                    "A folder of the app's own directly in Library/ (\(total.filesAndBytes)), outside the standard folders: move it into Library/Application Support, or Library/Caches if its content can be re-created.",
                bytes: total.allocatedBytes)
        }
    }
}
