import StocktakeModel

/// Folders in tmp or Caches renamed for deletion that still hold files: a background deletion that never finished.
struct InterruptedDeletionRule: Rule {
    static let description = RuleDescription(
        id: "interrupted-deletion", title: "Folder renamed for deletion still holds files",
        finds: """
            folders at the top of tmp or Caches renamed for deletion (a bare UUID name or one with a deletion suffix \
            such as `.old`, `.trash`, `deleting`) that still hold files
            """,
        rationale: """
            Deleting a large tree of small files is slow, so apps rename the folder to a throwaway name (a UUID, \
            `.trash-…`, `…deleting`) and delete it in the background ("fast folder nuking"). When the app is \
            suspended or killed first, the renamed folder stays behind and nothing will ever delete it: the app no \
            longer knows its name. Apple's iOS Data Storage Guidelines ask apps to "remember to delete those files \
            when you are done with them", and the File System Programming Guide says "your app should remove files \
            from this directory when they are no longer needed". The system may purge tmp and Caches only when \
            storage runs low, so until then the leftover costs the user space that Settings counts against the app.
            """,
        source: """
            \(Guidance.dataStorage) ; \(Guidance.fileSystemGuide) ; \
            https://www.cocoanetics.com/2012/02/fast-folder-nuking-on-ios/
            """,
        defaultSeverity: .warning,
        fix: """
            At launch, delete any folders left with your deletion prefix (list tmp or Caches and remove every name \
            your rename step produces), so a deletion cut short is finished the next time the app runs.
            """,
        examples: [
            RuleExample("a half-deleted chat folder renamed into tmp", expectedFindings: 1) { builder in
                builder.add("tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1/u31e/images/1.jpg", apparentBytes: 12_000)
                builder.add("tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1/u31e/voice/2.m4a", apparentBytes: 7_000)
            },
            RuleExample("a UUID-named folder with a suffix in Caches, and one marked `deleting`", expectedFindings: 2) {
                builder in
                builder.add("Library/Caches/9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D.old/a.bin", apparentBytes: 100)
                builder.add("Library/Caches/images-deleting/b.bin", apparentBytes: 100)
            },
            RuleExample("a renamed folder inside another is reported once, at the outermost", expectedFindings: 1) {
                builder in builder.add("tmp/to-delete/9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D/a.bin", apparentBytes: 100)
            },
            RuleExample("a renamed folder that is already empty", expectedFindings: 0) { builder in
                builder.add("tmp/.trash-1/inner", type: .directory)
            },
            RuleExample(
                "UUID-named records deep in caches and a UUID with a descriptive suffix (real layouts)",
                expectedFindings: 0
            ) { builder in
                builder.add(
                    "Library/Caches/GBTNetworkFileCacheDirectory/GBTAttachmentCache.MTE2/36C3E0F5-2A59-4C8A-9A57-2E1C0A7D3B11/a",
                    apparentBytes: 900)
                builder.add(
                    "Library/Caches/WebKit/CacheStorage/4C0FF272/Version 16/Records/8100DE37-A226-4E9F-9B1C-0D2E3F4A5B6C/Blobs/b",
                    apparentBytes: 900)
                builder.add("Library/Caches/1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9-thumbnails/t.jpg", apparentBytes: 900)
                builder.add("tmp/bundle/7D3C2B1A-0F9E-4D8C-B7A6-958473625140.bundle/x", apparentBytes: 900)
            },
            RuleExample(
                "UUID-named files, ordinary folders, and renamed folders outside tmp and Caches", expectedFindings: 0
            ) { builder in
                builder.add("tmp/uploads/7C699FBC-4221-4BFC-8117-D8C3E7E6525A.mp4", apparentBytes: 96_000)
                builder.add(
                    "Library/Caches/com.onevcat.Kingfisher.ImageCache.default/2d6f80432c19a793", apparentBytes: 500)
                builder.add("Library/Application Support/.trash-2/a.bin", apparentBytes: 100)
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        // Only the top of tmp and Caches: deeper down, UUID names are how apps and SDKs name live records
        // (WebKit's CacheStorage, attachment caches), and a rename-then-delete step moves a folder up to these.
        return ["tmp", "Library/Caches"].flatMap { inventory.ownChildren(of: $0) }.compactMap { index in
            guard inventory.entries[Int(index)].isDirectory, RenamedForDeletion.matches(inventory.name(index)) else {
                return nil
            }
            let contents = SubtreeContents(inventory, index)
            guard contents.files > 0 else { return nil }
            let files = Plural.count(contents.files, "file")
            return RuleFinding(
                index: index,
                message: """
                    This folder looks renamed for deletion but still holds \(files) \
                    (\(ByteCount.format(contents.allocatedBytes))): a background deletion was interrupted and \
                    nothing will finish it.
                    """,
                bytes: contents.allocatedBytes)
        }
    }
}
