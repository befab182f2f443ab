import StocktakeModel

/// Folders in tmp or Caches renamed for deletion that still hold files: a background deletion that never finished.
struct InterruptedDeletionRule: Rule {
    static let description = RuleDescription(
        id: "interrupted-deletion",
        title: "Folder renamed for deletion still holds files",
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
            https://developer.apple.com/icloud/documentation/data-storage/index.html ; \
            https://developer.apple.com/library/ios/documentation/FileManagement/Conceptual/FileSystemProgrammingGuide/\
            FileSystemOverview/FileSystemOverview.html ; https://www.cocoanetics.com/2012/02/fast-folder-nuking-on-ios/
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
            RuleExample("a UUID-named folder with a suffix in Caches, and one marked `deleting`", expectedFindings: 2) { builder in
                builder.add("Library/Caches/9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D.old/a.bin", apparentBytes: 100)
                builder.add("Library/Caches/images-deleting/b.bin", apparentBytes: 100)
            },
            RuleExample("a renamed folder inside another is reported once, at the outermost", expectedFindings: 1) { builder in
                builder.add("tmp/to-delete/9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D/a.bin", apparentBytes: 100)
            },
            RuleExample("a renamed folder that is already empty", expectedFindings: 0) { builder in
                builder.add("tmp/.trash-1/inner", type: .directory)
            },
            RuleExample("UUID-named files, ordinary folders, and renamed folders outside tmp and Caches", expectedFindings: 0) { builder in
                builder.add("tmp/uploads/7C699FBC-4221-4BFC-8117-D8C3E7E6525A.mp4", apparentBytes: 96_000)
                builder.add("Library/Caches/com.onevcat.Kingfisher.ImageCache.default/2d6f80432c19a793", apparentBytes: 500)
                builder.add("Library/Application Support/.trash-2/a.bin", apparentBytes: 100)
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        var findings: [RuleFinding] = []
        for root in ["tmp", "Library/Caches"] {
            guard let start = inventory.index(ofPath: Array(root.utf8)), inventory.entries[Int(start)].isDirectory else { continue }
            var stack = Array(inventory.children(start).reversed())
            while let index = stack.popLast() {
                let entry = inventory.entries[Int(index)]
                guard entry.isDirectory, !entry.flags.contains(.systemManaged), !entry.flags.contains(.transportArtefact) else {
                    continue
                }
                guard RenamedForDeletion.matches(inventory.name(index)) else {
                    stack.append(contentsOf: inventory.children(index).reversed())
                    continue
                }
                let contents = SubtreeContents(inventory, index)
                guard contents.files > 0 else { continue }
                let files = contents.files == 1 ? "1 file" : "\(contents.files) files"
                findings.append(RuleFinding(
                    index: index,
                    message: """
                        This folder looks renamed for deletion but still holds \(files) \
                        (\(ByteCount.format(contents.allocatedBytes))): a background deletion was interrupted and \
                        nothing will finish it.
                        """,
                    bytes: contents.allocatedBytes))
            }
        }
        return findings
    }
}
