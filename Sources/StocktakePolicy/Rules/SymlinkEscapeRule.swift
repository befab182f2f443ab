import StocktakeModel

/// A symbolic link whose target lies outside the container.
struct SymlinkEscapeRule: Rule {
    /// Long targets are cut in messages (the full target is at most a path; the message stays one line).
    static let maxTargetCharacters = 200

    static let description = RuleDescription(
        id: "symlink-escape", title: "Symlink points outside the container",
        finds: """
            a symlink that resolves outside the container (not WebKit's own `IndexedDB/v0`, nor any link iOS makes)
            """,
        rationale: """
            An app lives in its sandbox: the data container's path contains a UUID that is random per install \
            ("every app gets a random 128-bit UUID", OWASP MASTG), and backups restore the container's content, \
            not what a link points to. A link that resolves outside the container (an absolute path into this \
            install's container, or ../ past its root) breaks after a reinstall, a restore or a move to a new \
            device, or points at data the app cannot reach. The File System Programming Guide keeps an app's files \
            inside its own Documents, Library and tmp. The audit never follows links, so the target's size is not \
            counted anywhere. Links iOS makes itself (WebKit's `IndexedDB/v0`, an absolute link to its own folder) are \
            not reported: the app cannot change them.
            """,
        source: "https://mas.owasp.org/MASTG/techniques/ios/MASTG-TECH-0059 \(Guidance.fileSystemGuide)",
        defaultSeverity: .warning,
        fix: """
            Store a path relative to a known container directory (resolve it at run time with \
            FileManager.default.urls(for:in:)) or a relative link that stays inside the container; copy the data \
            into the container if the app needs it.
            """,
        examples: [
            RuleExample("an absolute link to another install's container", expectedFindings: 1) { builder in
                builder.add(
                    "Documents/current", type: .symlink, flags: .escapesContainer,
                    symlinkTarget:
                        "/var/mobile/Containers/Data/Application/0C1F3E52-9D43-4B8E-8F7A-3F1B2C4D5E6F/Documents/v2")
            },
            RuleExample("a relative link that climbs out of the container", expectedFindings: 1) { builder in
                builder.add(
                    "Library/Caches/outside", type: .symlink, flags: .escapesContainer,
                    symlinkTarget: "../../../elsewhere")
            },
            RuleExample(
                "WebKit's own absolute link to its IndexedDB folder (every browser-like app on a device)",
                expectedFindings: 0
            ) { builder in
                builder.add(
                    "Library/WebKit/WebsiteData/IndexedDB/v0", type: .symlink,
                    flags: [.escapesContainer, .systemManaged],
                    symlinkTarget:
                        "/var/mobile/Containers/Data/Application/EC1738DC-390C-470E-A529-E7B55C60828C/Library/WebKit/WebsiteData/IndexedDB"
                )
            },
            RuleExample("a relative link to a sibling stays inside", expectedFindings: 0) { builder in
                builder.add("Library/Caches/logs/app.log", apparentBytes: 1_000)
                builder.add("Library/Caches/logs/app-latest.log", type: .symlink, symlinkTarget: "app.log")
            },
        ])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        return inventory.findings { index, entry in
            guard entry.type == .symlink, entry.flags.contains(.escapesContainer), !entry.flags.contains(.systemManaged)
            else { return nil }
            var target = " (its target could not be read)"
            if let bytes = inventory.symlinkTargets[index] {
                var text = PathText.display(bytes)
                if text.count > Self.maxTargetCharacters { text = String(text.prefix(Self.maxTargetCharacters)) + "…" }
                target = ", to “\(VisibleText.render(text, as: .message))”"
            }
            return RuleFinding(
                index: index,
                message:
                    "This symlink points outside the container\(target): it breaks after a reinstall or restore, and the audit did not follow it."
            )
        }
    }
}
