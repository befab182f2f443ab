import Foundation
import TestSupport
import Testing

/// A device set is untrusted input read through the real binary: links in it are not followed, copies of a
/// device are not the device, other apps' containers are not this app's, no device goes unlisted, no report is
/// written into anything an audit reads, refusals print as lines, and the old layout is named. The set is
/// unchanged after every command.
@Suite struct SimulatorSafetyTests {
    typealias Fixture = DeviceSetFixture

    static let phone = "0E3B6C9A-1F2D-4C5B-9A8E-7D6C5B4A3F21"
    static let other = "5A1D2C3B-4E5F-4A6B-8C7D-9E0F1A2B3C4D"

    static func run(_ arguments: [String]) throws -> ProcessResult {
        let result = try StocktakeProcess.run(arguments, timeout: 300)
        #expect(!result.timedOut, "stocktake \(arguments.joined(separator: " ")) hung")
        return result
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func report(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    static func device(_ udid: String, _ name: String, state: Int = 1, _ extra: [String: Any] = [:]) -> [String: Any] {
        ["udid": udid, "name": name, "runtime": "iOS-17-5", "deviceType": "iPhone-15", "state": state].merging(extra) {
            $1
        }
    }

    static func app(_ id: String, groups: [String] = [], extensions: [[String: Any]] = [], _ extra: [String: Any] = [:])
        -> [String: Any]
    {
        [
            "id": id, "executable": "App", "entitlements": "section", "groups": groups, "extensions": extensions,
            "data": ["Documents/d.txt": "d"],
        ].merging(extra) { $1 }
    }

    static func stderrLines(_ result: ProcessResult) -> [String] {
        result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: 8. links

    @Test("a device whose data folder is a link is not read through it, and the listing and the audit say so")
    func linkedDataFolderIsNotFollowed() throws {
        let outside = try Fixture(
            ["devices": [Self.device(Self.other, "Elsewhere", ["apps": [Self.app("com.evil.app")]])]], label: "outside")
        let fixture = try Fixture([
            "devices": [
                Self.device(
                    Self.phone, "iPhone 15", state: 3, ["links": ["data": outside.path + "/" + Self.other + "/data"]])
            ]
        ])
        let before = (TreeSnapshot(fixture.path), TreeSnapshot(outside.path))
        let listing = try Self.run(["simulators", "--device-set", fixture.path, "--format", "json"])
        try #require(listing.status == 0, "\(listing.stderr)")
        let device = try #require((try Self.json(listing.stdout)["devices"] as? [[String: Any]])?.first)
        #expect((device["apps"] as? [Any])?.isEmpty == true, "nothing is read through the link")
        let notes = try #require(device["notes"] as? [[String: Any]])
        #expect(
            notes.contains {
                ($0["path"] as? String)?.hasSuffix(Self.phone + "/data") == true
                    && ($0["message"] as? String)?.contains("not followed") == true
            })
        let text = try Self.run(["simulators", "--device-set", fixture.path])
        #expect(
            text.stdout.contains("passed over: \(fixture.path)/\(Self.phone)/data: a symbolic link"), "\(text.stdout)")

        let out = try TemporaryTree("linked-data")
        let audit = try Self.run([
            "audit", "--simulator", Self.phone, "--app", "com.evil.app", "--device-set", fixture.path, "--output",
            out.path("r"),
        ])
        #expect(audit.status == 1)
        #expect(audit.stderr.contains("symbolic link") && audit.stderr.contains("not followed"), "\(audit.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path("r")))
        #expect(TreeSnapshot(fixture.path) == before.0 && TreeSnapshot(outside.path) == before.1)
    }

    @Test(
        "an app whose PlugIns is a link: its extensions there are not read, and the report says the link was not followed"
    )
    func linkedPlugInsAreNotFollowed() throws {
        // Outside the set: an .appex claiming another group and an extension id.
        let outside = try Fixture(
            [
                "devices": [
                    Self.device(
                        Self.other, "Elsewhere",
                        [
                            "apps": [
                                Self.app(
                                    "com.decoy",
                                    extensions: [
                                        [
                                            "id": "com.example.chat.spy", "executable": "Spy",
                                            "entitlements": "section", "groups": ["group.com.example.secret"],
                                        ]
                                    ])
                            ]
                        ])
                ]
            ], label: "outside")
        let decoyPlugIns = try outside.container(Self.other, "com.decoy", "appBundle") + "/PlugIns"
        let fixture = try Fixture([
            "devices": [
                Self.device(
                    Self.phone, "iPhone 15", state: 3,
                    [
                        "apps": [
                            Self.app(
                                "com.example.chat", groups: ["group.com.example.chat"],
                                ["bundleLinks": ["PlugIns": decoyPlugIns]])
                        ],
                        "groups": ["group.com.example.chat": ["a": 1], "group.com.example.secret": ["b": 2]],
                        "plugins": ["com.example.chat.spy": ["c": 3]],
                    ])
            ]
        ])
        let before = (TreeSnapshot(fixture.path), TreeSnapshot(outside.path))
        let out = try TemporaryTree("linked-plugins")
        let audit = try Self.run([
            "audit", "--simulator", "booted", "--app", "com.example.chat", "--device-set", fixture.path, "--output",
            out.path("r"),
            "--format", "json", "--fail-on", "never", "--quiet",
        ])
        try #require(audit.status == 0, "\(audit.stderr)")
        let report = try Self.report(out.path("r/report.json"))
        let groups = try #require(report["appGroups"] as? [[String: Any]])
        #expect(
            groups.compactMap { $0["identifier"] as? String } == ["group.com.example.chat"],
            "nothing from the linked PlugIns")
        let issues = try #require(report["issues"] as? [[String: Any]])
        let bundle = try fixture.container(Self.phone, "com.example.chat", "appBundle")
        #expect(
            issues.contains {
                ($0["path"] as? String) == bundle + "/PlugIns"
                    && ($0["detail"] as? String)?.contains("not followed") == true
            }, "\(issues)")
        #expect(TreeSnapshot(fixture.path) == before.0 && TreeSnapshot(outside.path) == before.1)
    }

    // MARK: 9. two folders, one UDID

    @Test("a UDID.bak copy is not the device: listed as ignored, and --simulator UDID audits the real one")
    func copiesOfADeviceAreNotTheDevice() throws {
        let chat = Self.app("com.example.chat")
        let fixture = try Fixture([
            "devices": [
                Self.device(Self.phone, "iPhone 15", ["apps": [chat]]),
                Self.device(Self.phone, "iPhone 15", ["apps": [chat], "folder": Self.phone + ".bak"]),
            ]
        ])
        let before = TreeSnapshot(fixture.path)
        let listing = try Self.json(
            try Self.run(["simulators", "--device-set", fixture.path, "--format", "json"]).stdout)
        #expect(
            (listing["devices"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == [
                fixture.path + "/" + Self.phone
            ])
        let notes = try #require(listing["notes"] as? [[String: Any]])
        #expect(
            notes.contains {
                $0["path"] as? String == fixture.path + "/" + Self.phone + ".bak"
                    && ($0["message"] as? String)?.contains("not that device") == true
            })

        let out = try TemporaryTree("copy")
        let audit = try Self.run([
            "audit", "--simulator", Self.phone, "--app", "com.example.chat", "--device-set", fixture.path,
            "--output", out.path("r"), "--format", "json", "--fail-on", "never", "--quiet",
        ])
        try #require(audit.status == 0, "\(audit.stderr)")
        let root = try #require(
            (try Self.report(out.path("r/report.json"))["container"] as? [String: Any])?["root"] as? String)
        #expect(root == (try fixture.container(Self.phone, "com.example.chat", "dataContainer")))
        #expect(TreeSnapshot(fixture.path) == before)
    }

    /// The two folders are the UDID in two cases: possible only on a case-sensitive volume.
    @Test(
        "two folders both valid for one UDID are refused, listing both, one per line",
        .enabled(if: CaseSensitivity.temporaryFolder, CaseSensitivity.hint))
    func conflictingDevicesAreRefused() throws {
        let chat = Self.app("com.example.chat")
        let fixture = try Fixture([
            "devices": [
                Self.device(Self.phone, "iPhone 15", state: 3, ["apps": [chat]]),
                Self.device(Self.phone, "iPhone 15", ["apps": [chat], "folder": Self.phone.lowercased()]),
            ]
        ])
        let before = TreeSnapshot(fixture.path)
        let out = try TemporaryTree("conflict")
        for query in [Self.phone, Self.phone.lowercased(), "booted"] {
            let audit = try Self.run([
                "audit", "--simulator", query, "--app", "com.example.chat", "--device-set", fixture.path, "--output",
                out.path("r"),
            ])
            #expect(audit.status == 1, "\(query)")
            let lines = Self.stderrLines(audit)
            #expect(
                lines.first?.hasPrefix("stocktake: error: 2 device folders claim the UDID") == true, "\(audit.stderr)")
            #expect(
                lines.contains("  " + fixture.path + "/" + Self.phone)
                    && lines.contains("  " + fixture.path + "/" + Self.phone.lowercased()), "\(audit.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path("r")))
        let text = try Self.run(["simulators", "--device-set", fixture.path])
        #expect(text.status == 0)
        #expect(
            text.stdout.hasPrefix("0 simulator devices in \(fixture.path) (2 folders refused as conflicting copies"),
            "\(text.stdout)")
        #expect(text.stdout.contains("refused: 2 folders claim the UDID \(Self.phone)"))
        #expect(TreeSnapshot(fixture.path) == before)
    }

    // MARK: 10. whose containers

    @Test("another app's containers are not this app's: signed ids match exactly, names go to the longest installed id")
    func companionsGoToTheirOwnApp() throws {
        let chat = Self.app(
            "com.example.chat", groups: ["group.com.example.chat"],
            extensions: [
                [
                    "id": "com.example.chat.widget", "executable": "W", "entitlements": "section", "groups": [],
                    "data": ["w": 1],
                ]
            ])
        let business = Self.app(
            "com.example.chat.business", groups: ["group.com.example.chat.business"],
            extensions: [
                [
                    "id": "com.example.chat.business.widget", "executable": "B", "entitlements": "section",
                    "groups": [], "data": ["b": 1],
                ]
            ])
        let fixture = try Fixture([
            "devices": [
                Self.device(
                    Self.phone, "iPhone 15", state: 3,
                    [
                        "apps": [chat, business],
                        "system": [
                            ["id": "com.apple.maps", "data": ["m": "m"]],
                            ["id": "com.apple.maps.pro", "data": ["p": "p"]],
                        ],
                        "groups": [
                            "group.com.example.chat": ["a": 1], "group.com.example.chat.business": ["b": 1],
                            "group.com.apple.maps": ["c": 1], "group.com.apple.maps.pro.shared": ["d": 1],
                        ],
                        "plugins": [
                            "com.example.chat.stray": ["s": 1], "com.apple.maps.pro.widget": ["e": 1],
                            "com.apple.maps.widget": ["f": 1],
                        ],
                    ])
            ]
        ])
        let before = TreeSnapshot(fixture.path)
        let listing = try Self.json(
            try Self.run(["simulators", "--device-set", fixture.path, "--format", "json"]).stdout)
        let apps = try #require((listing["devices"] as? [[String: Any]])?.first?["apps"] as? [[String: Any]])
        func companions(_ id: String, _ key: String) -> [String: String] {
            let list = apps.first { $0["bundleIdentifier"] as? String == id }?[key] as? [[String: Any]] ?? []
            return Dictionary(
                uniqueKeysWithValues: list.map { ($0["identifier"] as? String ?? "", $0["matchedBy"] as? String ?? "") }
            )
        }
        #expect(companions("com.example.chat", "appGroups") == ["group.com.example.chat": "entitlements"])
        #expect(
            companions("com.example.chat", "plugins") == ["com.example.chat.widget": "plug-in bundle"],
            "not the business app's, nor a stray one")
        #expect(
            companions("com.example.chat.business", "plugins") == ["com.example.chat.business.widget": "plug-in bundle"]
        )
        #expect(
            companions("com.apple.maps", "appGroups") == [
                "group.com.apple.maps": "bundle-id prefix (longest installed app)"
            ])
        #expect(
            companions("com.apple.maps", "plugins") == [
                "com.apple.maps.widget": "bundle-id prefix (longest installed app)"
            ])
        #expect(
            companions("com.apple.maps.pro", "appGroups") == [
                "group.com.apple.maps.pro.shared": "bundle-id prefix (longest installed app)"
            ])
        #expect(
            companions("com.apple.maps.pro", "plugins") == [
                "com.apple.maps.pro.widget": "bundle-id prefix (longest installed app)"
            ])

        let out = try TemporaryTree("companions")
        for (app, expected) in [
            (
                "com.example.chat",
                ["group.com.example.chat": "entitlements", "com.example.chat.widget": "plug-in bundle"]
            ),
            (
                "com.apple.maps",
                [
                    "group.com.apple.maps": "bundle-id prefix (longest installed app)",
                    "com.apple.maps.widget": "bundle-id prefix (longest installed app)",
                ]
            ),
        ] {
            let audit = try Self.run([
                "audit", "--simulator", "booted", "--app", app, "--device-set", fixture.path,
                "--output", out.path(app), "--format", "json", "--fail-on", "never", "--quiet",
            ])
            try #require(audit.status == 0, "\(audit.stderr)")
            let groups = try #require(try Self.report(out.path(app + "/report.json"))["appGroups"] as? [[String: Any]])
            #expect(
                Dictionary(
                    uniqueKeysWithValues: groups.map {
                        ($0["identifier"] as? String ?? "", $0["matchedBy"] as? String ?? "")
                    }) == expected)
        }
        #expect(TreeSnapshot(fixture.path) == before)
    }

    // MARK: 11. every device

    @Test("a set of 10,050 devices is listed whole")
    func everyDeviceIsListed() throws {
        let fixture = try Fixture([
            "devices": [Self.device(Self.phone, "iPhone 15", state: 3)], "bulk": ["count": 10_049],
        ])
        let before = TreeSnapshot(fixture.path)
        let text = try Self.run(["simulators", "--device-set", fixture.path])
        try #require(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("10050 simulator devices in \(fixture.path)\n"))
        #expect(text.stdout.contains("Bulk 10048 (iOS 17.5)"))
        let listing = try Self.json(
            try Self.run(["simulators", "--device-set", fixture.path, "--format", "json"]).stdout)
        #expect((listing["devices"] as? [Any])?.count == 10_050)
        let audit = try Self.run(["audit", "--simulator", "Bulk 10048", "--app", "x", "--device-set", fixture.path])
        #expect(
            audit.stderr.contains("'x' is not installed on Bulk 10048"), "the last device is found: \(audit.stderr)")
        // A refusal naming the devices lists some, and says how many it left out and where to see them all.
        let unknown = try Self.run(["audit", "--simulator", "iPhone 99", "--app", "x", "--device-set", fixture.path])
        #expect(unknown.status == 1)
        let lines = Self.stderrLines(unknown).filter { !$0.isEmpty }
        #expect(lines.count == 52, "\(lines.prefix(3))")
        #expect(
            lines.last
                == "  … and 10000 more of 10050 (`stocktake simulators --device-set \(fixture.path)` lists them all)")
        #expect(TreeSnapshot(fixture.path) == before)
    }

    // MARK: 12. no report inside anything read

    @Test(
        "--output inside the bundle, an App Group, an extension's container or the device set is refused like the data container"
    )
    func outputInsideAnyReadTreeIsRefused() throws {
        let chat = Self.app(
            "com.example.chat", groups: ["group.com.example.chat"],
            extensions: [
                [
                    "id": "com.example.chat.widget", "executable": "W", "entitlements": "section", "groups": [],
                    "data": ["w": 1],
                ]
            ])
        let fixture = try Fixture([
            "devices": [
                Self.device(
                    Self.phone, "iPhone 15", state: 3,
                    [
                        "apps": [chat], "groups": ["group.com.example.chat": ["a": 1]],
                    ])
            ]
        ])
        let before = TreeSnapshot(fixture.path)
        let places: [(String, String)] = [
            (try fixture.container(Self.phone, "com.example.chat", "dataContainer"), "container"),
            (try fixture.container(Self.phone, "com.example.chat", "appBundle"), "app bundle"),
            (try fixture.container(Self.phone, "group.com.example.chat", "groupContainer"), "App Group container"),
            (try fixture.container(Self.phone, "com.example.chat.widget", "dataContainer"), "extension data container"),
            (fixture.path, "simulator device set"),
        ]
        for (tree, what) in places {
            let output = tree + "/Reports/new"
            let result = try Self.run([
                "audit", "--simulator", "booted", "--app", "com.example.chat", "--device-set", fixture.path, "--output",
                output,
            ])
            #expect(result.status == 1, "\(what): \(result.stderr)")
            #expect(
                result.stderr
                    == "stocktake: error: refusing to write reports to \(output): it is inside the audited \(what) \(tree); choose another --output\n"
            )
        }
        let baseline = fixture.path + "/baseline.json"
        let refused = try Self.run([
            "audit", "--simulator", "booted", "--app", "com.example.chat", "--device-set", fixture.path,
            "--output", try TemporaryTree("elsewhere").path("r"), "--write-baseline", baseline,
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "stocktake: error: refusing to write the baseline to \(baseline): it is inside the audited simulator device set \(fixture.path); choose another --write-baseline\n"
        )
        #expect(TreeSnapshot(fixture.path) == before)

        // Given by hand, the companions are protected the same way.
        let export = try TemporaryTree("by-hand")
        try export.write("container/Documents/a.txt", string: "a")
        try export.mkdir("container/Library/Caches")
        try export.mkdir("container/tmp")
        try export.write("Chat.app/Info.plist", string: "<plist><dict/></plist>")
        try export.write("group/x", string: "x")
        for (tree, what) in [(export.path("Chat.app"), "app bundle"), (export.path("group"), "App Group container")] {
            let result = try Self.run([
                "audit", export.path("container"), "--app-bundle", export.path("Chat.app"), "--app-group",
                export.path("group"),
                "--output", tree + "/out",
            ])
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "stocktake: error: refusing to write reports to \(tree)/out: it is inside the audited \(what) \(tree); choose another --output\n"
            )
            #expect(!FileManager.default.fileExists(atPath: tree + "/out"))
        }
        // And so is the device backup laid over the export.
        let backup = try DeviceBackupCommandTests.backup()
        let backupBefore = TreeSnapshot(backup.path)
        let result = try Self.run([
            "audit", export.path("container"), "--bundle-id", DeviceBackupCommandTests.app, "--backup", backup.path,
            "--output", backup.path + "/out",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "stocktake: error: refusing to write reports to \(backup.path)/out: it is inside the audited device backup \(backup.path); choose another --output\n"
        )
        #expect(TreeSnapshot(backup.path) == backupBefore)
    }

    // MARK: 13. refusals print as lines

    @Test("a refusal listing candidates prints one per line; a name holding a line break stays escaped inside its line")
    func refusalsPrintAsLines() throws {
        let fixture = try Fixture([
            "devices": [
                Self.device(Self.phone, "iPhone 15", state: 3),
                Self.device(Self.other, "iPhone 15\n::error file=x::forged", state: 3),
                Self.device("9F8E7D6C-5B4A-4392-8172-6A5B4C3D2E1F", "iPhone 15"),
                Self.device("1F8E7D6C-5B4A-4392-8172-6A5B4C3D2E1F", "iPhone 15"),
            ]
        ])
        let ambiguous = try Self.run(["audit", "--simulator", "iPhone 15", "--app", "a", "--device-set", fixture.path])
        #expect(ambiguous.status == 1)
        var lines = Self.stderrLines(ambiguous)
        #expect(
            lines.first == "stocktake: error: 3 simulator devices match 'iPhone 15'; give one's UDID:",
            "\(ambiguous.stderr)")
        #expect(lines.filter { $0.hasPrefix("  ") }.count == 3)
        #expect(!ambiguous.stderr.contains("\\x0a"))

        let booted = try Self.run(["audit", "--simulator", "booted", "--app", "a", "--device-set", fixture.path])
        #expect(booted.status == 1)
        lines = Self.stderrLines(booted)
        #expect(
            lines.first == "stocktake: error: 2 simulator devices match 'booted'; give one's UDID:", "\(booted.stderr)")
        #expect(lines.contains { $0.hasPrefix("  \(Self.phone)  iPhone 15  iOS 17.5  Booted") })
        #expect(
            lines.contains { $0.hasPrefix("  \(Self.other)  iPhone 15\\x0a::error file=x::forged  iOS 17.5  Booted") },
            "\(booted.stderr)")
        #expect(!lines.contains { $0.hasPrefix("::") }, "no forged workflow command")
    }

    // MARK: 14. iOS 7-era layout

    @Test("an app in the iOS 7-era layout is listed, and the audit says plainly which layout it is and what to do")
    func legacyLayoutIsNamed() throws {
        let fixture = try Fixture([
            "devices": [
                Self.device(
                    Self.phone, "iPhone 5s", state: 3,
                    [
                        "runtime": "iOS-7-1",
                        "legacyApps": [["id": "com.example.old", "name": "Old", "data": ["Documents/notes.txt": "n"]]],
                    ])
            ]
        ])
        let before = TreeSnapshot(fixture.path)
        let listing = try Self.json(
            try Self.run(["simulators", "--device-set", fixture.path, "--format", "json"]).stdout)
        let app = try #require(((listing["devices"] as? [[String: Any]])?.first?["apps"] as? [[String: Any]])?.first)
        #expect(app["bundleIdentifier"] as? String == "com.example.old")
        #expect(app["layout"] as? String == "legacyApplications")
        #expect(
            app["legacyFolder"] as? String == (try fixture.container(Self.phone, "com.example.old", "legacyFolder")))
        #expect(app["appBundle"] as? String == (try fixture.container(Self.phone, "com.example.old", "appBundle")))
        let audit = try Self.run([
            "audit", "--simulator", "booted", "--app", "com.example.old", "--device-set", fixture.path,
        ])
        #expect(audit.status == 1)
        #expect(
            audit.stderr.contains("iOS 7-era layout") && !audit.stderr.contains("is not installed"), "\(audit.stderr)")
        #expect(audit.stderr.contains(try fixture.container(Self.phone, "com.example.old", "legacyFolder")))
        #expect(TreeSnapshot(fixture.path) == before)
    }
}
