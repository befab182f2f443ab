import StocktakeModel

/// What the audit could not read: every scan issue, and entries marked unreadable without one.
struct UnreadableEntryRule: Rule {
    static let description = RuleDescription(
        id: "unreadable-entry", title: "Entry the audit could not read",
        finds: """
            entries the audit could not read (a stale AppleDouble sidecar was read: it is listed in `issues` as \
            `unpairedSidecar` with its own advice)
            """,
        rationale: """
            The other rules judge placement and backup from what the audit read: an entry it could not list, \
            inspect or read the extended attributes of has unknown content, size or backup state, so the Data \
            Storage Guidelines' checks ("Any file that can be re-created or downloaded must be excluded from the \
            backup") cannot be made for it, and totals may be short. A stale AppleDouble sidecar (its file is \
            missing) was read fine: it is listed in the report's issues as `unpairedSidecar`, not here.
            """,
        source: "\(Guidance.dataStorage) \(Guidance.qa1719)",
        defaultSeverity: .warning,
        fix: """
            Re-export the container with read permission for the audit (Xcode's Download Container, then \
            chmod -R u+rX on the copy), keep extended attributes intact, and check that nothing changes the \
            folder while it is audited.
            """,
        examples: [
            RuleExample(
                "a folder that could not be listed", expectedFindings: 1,
                issues: [
                    ScanIssue(
                        path: Array("Library/Application Support/Vault".utf8), reason: .permissionDenied,
                        detail: "cannot list folder: permission denied")
                ]
            ) { builder in builder.add("Library/Application Support/Vault", type: .directory, flags: .unreadable) },
            RuleExample(
                "a file that vanished during the audit, and a file flagged unreadable without an issue",
                expectedFindings: 2,
                issues: [
                    ScanIssue(
                        path: Array("tmp/upload-1.part".utf8), reason: .vanished,
                        detail: "cannot read entry: no such file")
                ]
            ) { builder in builder.add("Documents/notes.txt", apparentBytes: 100, flags: .unreadable) },
            RuleExample("an export read in full", expectedFindings: 0) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 100)
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        guard !inventory.entries.isEmpty else { return [] }
        var resolver = PathResolver(inventory: inventory)
        var findings: [RuleFinding] = []
        var reported = Set<[UInt8]>()
        var entriesWithIssues = Set<Int32>()
        // A stale sidecar was read fine: it is an artefact of the export, listed in the report's issues with
        // its own advice, not something the audit failed to read.
        for issue in inventory.issues where issue.reason != .unpairedSidecar {
            let path = Array(issue.path.split(separator: UInt8(ascii: "/")).joined(separator: [UInt8(ascii: "/")]))
            // Two issues of one reason at one path are one finding (one fingerprint).
            guard reported.insert(path + [0] + Array(issue.reason.rawValue.utf8)).inserted else { continue }
            let (index, exact) = resolver.nearest(path)
            if exact { entriesWithIssues.insert(index) }
            let message = Self.message(issue)
            findings.append(
                RuleFinding(index: index, path: path, message: message, discriminator: issue.reason.rawValue))
        }
        return findings
            + inventory.findings { index, entry in
                guard entry.flags.contains(.unreadable), !entriesWithIssues.contains(index) else { return nil }
                let what = entry.isDirectory ? "folder could not be listed" : "entry could not be read"
                return RuleFinding(
                    index: index,
                    message: "This \(what): what it holds, its size and its backup state are missing from the report.",
                    discriminator: ScanIssue.Reason.unreadable.rawValue)
            }
    }

    private static func message(_ issue: ScanIssue) -> String {
        // Details quote names (an unpaired sidecar's, a plist's key).
        let detail = issue.detail.isEmpty ? issue.reason.rawValue : VisibleText.render(issue.detail, as: .message)
        switch issue.reason {
        case .unpairedSidecar: return detail
        case .malformedMetadata:
            return
                "Metadata could not be understood (\(detail)): backup state or content kind may be wrong for this entry."
        case .vanished:
            return "This entry disappeared while the audit ran (\(detail)): audit a copy that nothing is changing."
        case .contentNotRead:
            return
                "The content checks did not read this file whole (\(detail)): a secret in it may be missing from the report."
        case .tooDeep, .nameTooLong, .permissionDenied, .unreadable:
            return
                "The audit could not read this entry (\(detail)): what it holds, its size or its backup state are missing from the report."
        }
    }

    /// Finds entries by path, building each folder's name table once, on first use: linear in the folders
    /// the issues pass through, however many issues there are.
    private struct PathResolver {
        let inventory: Inventory
        var tables: [Int32: [[UInt8]: Int32]] = [:]

        /// The entry at `path`, or its nearest existing ancestor (the root at worst); `exact` when found whole.
        mutating func nearest(_ path: [UInt8]) -> (index: Int32, exact: Bool) {
            var current = inventory.root
            for component in path.split(separator: UInt8(ascii: "/")) {
                guard let next = table(current)[Array(component)] else { return (current, false) }
                current = next
            }
            return (current, true)
        }

        private mutating func table(_ folder: Int32) -> [[UInt8]: Int32] {
            if let table = tables[folder] { return table }
            var table: [[UInt8]: Int32] = [:]
            for child in inventory.children(folder) { table[Array(inventory.name(child))] = child }
            tables[folder] = table
            return table
        }
    }
}
