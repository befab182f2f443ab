import StocktakeModel

/// Files left in tmp at export time: old ones (by the container's own clock) or large ones.
struct TmpLeftoversRule: Rule {
    static let defaultMinBytes: Int64 = 1_000_000
    static let defaultMinAgeSeconds: Int64 = 86_400

    static let description = RuleDescription(
        id: "tmp-leftovers", title: "Files left in tmp",
        finds: """
            entries left in tmp, by size (`minBytes`) or age relative to the newest file in the export \
            (`minAgeSeconds`); ages only from times the device can have written: when the export records its \
            download time (`XCDownloadDate`), a file dated more than a day after it (the Mac's zone is unknown) was \
            re-dated by a copy (git, `cp` without `-p`) and has no age
            """,
        rationale: """
            tmp is for "temporary files that do not need to persist between launches of your app. Your app should \
            remove files from this directory when they are no longer needed" (File System Programming Guide); the iOS \
            Data Storage Guidelines add "remember to delete those files when you are done with them", and Apple's \
            iOS Storage Best Practices talk says of tmp: "Transient files; Remove when done". The system purges tmp \
            only when the app is not running and storage runs low, so what the app forgets stays on the device and \
            counts against it. Age is measured against the export's own clock, the newest file in the container, and \
            only from times the device could have written: when the export records its download time (Xcode's \
            XCDownloadDate), a file dated after it was re-dated by a copy (git, a copy that does not keep times), so \
            its age is unknown and only its size counts.
            """,
        source: "\(Guidance.fileSystemGuide) ; \(Guidance.dataStorage) ; \(Guidance.storageTechTalk)",
        defaultSeverity: .warning,
        options: [
            RuleOption(
                name: "minBytes", defaultValue: ByteQuantity.text(defaultMinBytes),
                meaning: "Report a tmp entry holding at least this many allocated bytes, whatever its age."),
            RuleOption(
                name: "minAgeSeconds", defaultValue: String(defaultMinAgeSeconds),
                meaning:
                    "Report a tmp entry whose oldest file is older than this, counted back from the newest file in the container (files dated after the export's download time have no age)."
            ),
        ],
        fix: """
            Delete temporary files as soon as the work that needed them ends (in a `defer` or the operation's \
            completion), and at launch clear whatever an earlier run left in tmp.
            """,
        examples: [
            RuleExample("upload leftovers three days older than the newest file", expectedFindings: 1) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_700_000_000)
                builder.add("tmp/uploads/7C699FBC.mp4", apparentBytes: 96_000, modified: 1_700_000_000 - 3 * 86_400)
                builder.add("tmp/uploads/34E4669A.jpg", apparentBytes: 41_000, modified: 1_700_000_000 - 3 * 86_400)
            },
            RuleExample("a fresh but large file, and an old small one", expectedFindings: 2) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_700_000_000)
                builder.add("tmp/export.zip", apparentBytes: 5_000_000, modified: 1_700_000_000 - 60)
                builder.add("tmp/old.txt", apparentBytes: 10, modified: 1_700_000_000 - 2 * 86_400)
            },
            RuleExample("a recent small file in tmp", expectedFindings: 0) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_700_000_000)
                builder.add("tmp/upload.jpg", apparentBytes: 41_000, modified: 1_700_000_000 - 3_600)
            },
            RuleExample(
                "a renamed folder left to interrupted-deletion, an empty safe-save folder, a stray sidecar",
                expectedFindings: 0
            ) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_700_000_000)
                builder.add(
                    "tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1/a.jpg", apparentBytes: 9_000,
                    modified: 1_600_000_000)
                builder.add("tmp/(A Document Being Saved By ChatApp)", type: .directory)
                builder.add("tmp/._gone.heic", apparentBytes: 4_096, flags: .transportArtefact, modified: 1_600_000_000)
            },
            RuleExample("a safe-save folder that still holds an old file", expectedFindings: 1) { builder in
                builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_700_000_000)
                builder.add(
                    "tmp/(A Document Being Saved By ChatApp)/Chat.txt", apparentBytes: 2_048, modified: 1_699_000_000)
            },
        ])

    var minBytes = Self.defaultMinBytes
    var minAgeSeconds = Self.defaultMinAgeSeconds

    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try Self(
            minBytes: options.bytes("minBytes", default: defaultMinBytes),
            minAgeSeconds: options.integer("minAgeSeconds", default: defaultMinAgeSeconds))
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        let latest = Self.latestDeviceTime(context.exportedAt)
        let clock = Self.newestModification(inventory, notAfter: latest)
        return inventory.ownChildren(of: "tmp").compactMap { index in
            let entry = inventory.entries[Int(index)]
            // interrupted-deletion's
            if entry.isDirectory && RenamedForDeletion.matches(inventory.name(index)) { return nil }
            let contents = SubtreeContents(inventory, index)
            guard contents.files > 0 else { return nil }
            // No age from a time the device cannot have written (the oldest file re-dated means all were).
            let age = contents.oldestModified.flatMap { oldest in
                clock.flatMap { oldest <= latest ?? .max ? Self.age(of: oldest, clock: $0) : nil }
            }
            guard (age.map { $0 > minAgeSeconds } ?? false) || contents.allocatedBytes >= minBytes else { return nil }
            let message = Self.message(entry: entry, contents: contents, age: age)
            return RuleFinding(index: index, message: message, bytes: contents.allocatedBytes)
        }
    }

    private static func message(entry: Entry, contents: SubtreeContents, age: Int64?) -> String {
        let size = ByteCount.format(contents.allocatedBytes)
        let what =
            entry.isDirectory
            ? "This tmp folder still holds \(Plural.count(contents.files, "file")) (\(size))"
            : "This file (\(size)) was left in tmp"
        var when = "of unknown age (dated after the export: re-dated by a copy)"
        if let age {
            when = (age > 0 ? "\(describe(seconds: age)) older than" : "as new as") + " the newest file in the export"
            if entry.isDirectory { when = "the oldest " + when }
        }
        return "\(what), \(when): delete temporary files once they are used."
    }

    /// The latest modification time a file written on the device can carry: the download time the export records inside
    /// itself (no copy changes it), plus slack for the Mac's unknown time zone (a local `XCDownloadDate`) and the two
    /// clocks' drift. Nil when the export records none: its times are then taken as they are.
    static func latestDeviceTime(_ exportedAt: ExportTime?) -> Int64? {
        guard let exportedAt, exportedAt.source == .downloadDate else { return nil }
        let slack: Int64 = exportedAt.isLocalTime ? 15 * 3_600 : 3_600
        let (latest, overflow) = exportedAt.seconds.addingReportingOverflow(slack)
        return overflow ? Int64.max : latest
    }

    /// The export's clock: the newest modification of any file (folders change when copied; AppleDouble sidecars
    /// are written by the copy, not the app), among times the device can have written.
    static func newestModification(_ inventory: Inventory, notAfter latest: Int64? = nil) -> Int64? {
        inventory.entries.lazy.filter { $0.isAppData && $0.modified <= latest ?? .max }.map(\.modified).max()
    }

    /// Seconds from `modified` to `clock`, without overflow on hostile times.
    static func age(of modified: Int64, clock: Int64) -> Int64 {
        let (difference, overflow) = clock.subtractingReportingOverflow(modified)
        return overflow ? (clock > modified ? Int64.max : Int64.min) : difference
    }

    /// "3 days", "5 hours", "12 minutes", "40 seconds": rounded to the nearest whole unit.
    static func describe(seconds: Int64) -> String {
        func plural(_ unit: Int64, _ name: String) -> String {
            let count = seconds / unit + (2 * (seconds % unit) >= unit ? 1 : 0)
            return Plural.count(count, name)
        }
        if seconds >= 86_400 { return plural(86_400, "day") }
        if seconds >= 3_600 { return plural(3_600, "hour") }
        if seconds >= 60 { return plural(60, "minute") }
        return plural(1, "second")
    }
}
