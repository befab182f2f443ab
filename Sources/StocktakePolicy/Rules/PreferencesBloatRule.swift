import StocktakeModel

/// A preferences plist grown past what settings need: UserDefaults used as a data store.
struct PreferencesBloatRule: Rule {
    static let description = RuleDescription(
        id: "preferences-bloat", title: "Oversized preferences plist",
        finds: "a Preferences plist over `maxBytes`: UserDefaults used as a data store",
        rationale: """
            UserDefaults is for settings: Apple's documentation describes it as a store for "nonsensitive \
            information, such as app-specific configuration details", and "UserDefaults caches the information to \
            avoid having to open the user's defaults database each time you need a default value", so the whole \
            plist of a domain is read into memory when it is first used, usually at launch, and rewritten when a \
            value changes. The File System Programming Guide adds that apps "should not create preference files \
            directly but should instead use the NSUserDefaults class or CFPreferences API". A preferences plist \
            over a megabyte holds data (catalogues, caches, archived objects), not preferences: it slows launch, \
            costs memory for the app's lifetime and is backed up.
            """,
        source: "https://developer.apple.com/documentation/foundation/userdefaults \(Guidance.fileSystemGuideArchive)",
        defaultSeverity: .warning,
        options: [
            RuleOption(
                name: "maxBytes", defaultValue: String(defaultMaxBytes),
                meaning: "A Preferences plist larger than this many bytes (apparent size) is reported.")
        ],
        fix: """
            Keep only small settings in UserDefaults; move large values into files: Library/Caches for what can be \
            fetched again, Library/Application Support for the rest; remove the old keys on the next launch.
            """,
        examples: [
            RuleExample("A 1.5 MB app preferences plist", expectedFindings: 1) { builder in
                builder.add("Library/Preferences/com.example.app.plist", apparentBytes: 1_500_000)
                builder.add("Library/Preferences/group.com.example.app.plist", apparentBytes: 400)
            },
            RuleExample("Small preferences, and large plists outside Preferences", expectedFindings: 0) { builder in
                builder.add("Library/Preferences/com.example.app.plist", apparentBytes: 255_688)
                builder.add("Library/Preferences/com.example.app.limit.plist", apparentBytes: 1_000_000)
                builder.add("Library/Application Support/catalog.plist", apparentBytes: 5_000_000)
            },
            RuleExample("System frameworks' preference files are not the app's to shrink", expectedFindings: 0) {
                builder in
                builder.add("Library/Preferences/com.apple.EmojiPreferences.plist", apparentBytes: 2_000_000)
                builder.add("Library/Preferences/.GlobalPreferences.plist", apparentBytes: 2_000_000)
            },
        ])

    /// 1 MB (decimal, as iOS Settings counts), in apparent bytes.
    static let defaultMaxBytes: Int64 = 1_000_000

    var maxBytes = Self.defaultMaxBytes

    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try Self(maxBytes: options.bytes("maxBytes", default: defaultMaxBytes))
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        return inventory.findings { index, entry in
            guard entry.location == .preferences, entry.type == .file, entry.apparentBytes > maxBytes,
                !entry.flags.contains(.transportArtefact), isAppPreferencesFile(inventory.name(index))
            else { return nil }
            return RuleFinding(
                index: index,
                message:
                    "This preferences plist is \(ByteCount.format(entry.apparentBytes)) (over \(ByteCount.format(maxBytes))): UserDefaults reads it whole into memory, usually at launch, so move the large values into files in Library/Caches or Library/Application Support.",
                bytes: entry.countedBytes)
        }
    }

    /// A `.plist` the app's own defaults domains write; Apple frameworks' domains are left out.
    private func isAppPreferencesFile(_ name: ArraySlice<UInt8>) -> Bool {
        name.count > 6 && name.suffix(6).elementsEqual(".plist".utf8) && !name.starts(with: "com.apple.".utf8)
            && !name.starts(with: ".GlobalPreferences".utf8)
    }
}
