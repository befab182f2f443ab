/// The commented configuration `stocktake init` writes: every key, with the defaults, explained.
public enum DefaultConfiguration {
    public static var text: String {
        var lines = """
            # stocktake.yml: the storage policy for `stocktake audit` (read from the current folder, or --config FILE).
            # Every key is optional. Sizes accept 4096, 50MB, 1.5GB (decimal, as iOS shows them) or 64KiB, 2MiB.

            # Whether Documents/ is visible to the user (UIFileSharingEnabled / LSSupportsOpeningDocumentsInPlace).
            # Without it, --app-bundle's Info.plist decides; without both, it is unknown.
            # documentsVisible: true

            # Whether file contents are read for credentials, tokens and session cookies (the secret-* rules,
            # credential-cookie, plaintext-credential-store). Values found are never written anywhere.
            # contentChecks: true

            # Whether a content pass that could not read every file it meant to (a file over a size or decoding
            # limit, one that does not parse, an encrypted store, the pass's budget spent) fails the run (exit 2):
            # required, or bestEffort (the default: such files are listed in the report's issues and coverage).
            # contentCoverage: bestEffort

            # Paths (relative to the container root) never reported. * within a name, ** across folders.
            exclude: []
            #  - "Library/Caches/com.thirdparty.sdk/**"

            # Named groups of paths with one {id} capture: the report lists their members by size, like an app's
            # storage screen lists chats.
            groups: {}
            #  chats: "Library/Application Support/Chats/{id}/**"

            # Limits that fail the run (rule budget-exceeded): allocated bytes (200MB), or files (5000 files);
            # `files` is the container's file count.
            budgets: {}
            #  total: 500MB
            #  files: 100000
            #  documentsAndData: 200MB
            #  locations:
            #    caches: 200MB
            #    tmp: 5000 files
            #  groups:
            #    chats: 50MB        # per member

            # Rules: enabled, severity (error, warning, note) and options. `stocktake rules ID` explains each.
            # Every value below is the default, so this file changes nothing until edited. Severities are left
            # commented out: a rule whose severity depends on the container (documents-hidden-data is an error
            # when Documents is visible) keeps adapting until you pin one.
            rules:

            """
        for rule in RuleRegistry.all {
            let description = rule.description
            lines += "  \(description.id):          # \(description.title)\n"
            lines +=
                description.isOptIn
                ? "    enabled: false      # opt-in: it reads file contents, far slower than the walk\n"
                : "    enabled: true\n"
            lines += "    # severity: \(description.defaultSeverity.rawValue)\n"
            for option in description.options { lines += "    \(option.name): \(option.defaultValue)\n" }
        }
        return lines
    }
}
