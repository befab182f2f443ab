import Foundation
import TestSupport
import Testing

/// `stocktake simulators` and `stocktake audit --simulator` through the real binary, on a device set laid out
/// as Xcode writes it. The set is only read: its snapshot is the same after every command.
@Suite struct SimulatorCommandTests {
    typealias Fixture = DeviceSetFixture

    static func run(_ arguments: [String]) throws -> ProcessResult {
        let result = try StocktakeProcess.run(arguments, timeout: 120)
        #expect(!result.timedOut, "stocktake \(arguments.joined(separator: " ")) hung")
        return result
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func listsDevicesAndAppsWithSizesDuAgreesWith() throws {
        let fixture = try Fixture.standard()
        let before = TreeSnapshot(fixture.path)
        let result = try Self.run(["simulators", "--device-set", fixture.path, "--format", "json"])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(TreeSnapshot(fixture.path) == before)
        let listing = try Self.json(result.stdout)
        #expect(listing["schemaVersion"] as? Int == 1)
        let devices = try #require(listing["devices"] as? [[String: Any]])
        #expect(devices.map { $0["udid"] as? String } == [Fixture.tablet, Fixture.bootedPhone, Fixture.olderPhone])
        let phone = try #require(devices.first { $0["udid"] as? String == Fixture.bootedPhone })
        #expect(phone["name"] as? String == "iPhone 15")
        #expect(phone["runtime"] as? String == "iOS 17.5")
        #expect(phone["runtimeIdentifier"] as? String == "com.apple.CoreSimulator.SimRuntime.iOS-17-5")
        #expect(phone["booted"] as? Bool == true)
        #expect(phone["state"] as? String == "Booted")
        let apps = try #require(phone["apps"] as? [[String: Any]])
        let chat = try #require(apps.first { $0["bundleIdentifier"] as? String == Fixture.chat })
        let data = try fixture.container(Fixture.bootedPhone, Fixture.chat, "dataContainer")
        #expect(chat["dataContainer"] as? String == data)
        #expect(chat["applicationType"] as? String == "User")
        #expect((chat["allocatedBytes"] as? NSNumber)?.int64Value == (try DiskUsage.bytes(data)))
        #expect((chat["apparentBytes"] as? NSNumber)?.int64Value == (try DiskUsage.bytes(data, apparent: true)))
        #expect(
            (chat["appGroups"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String } == [
                "group.com.example.chat", "group.com.example.shared",
            ])
        #expect(
            apps.first { $0["bundleIdentifier"] as? String == "com.apple.mobilesafari" }?["applicationType"] as? String
                == "System")

        let text = try Self.run(["simulators", "--device-set", fixture.path])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("3 simulator devices in \(fixture.path)\n"))
        #expect(text.stdout.contains("iPhone 15 (iOS 17.5)  \(Fixture.bootedPhone)  Booted"))
    }

    @Test func auditsTheBootedDevicesAppWithItsGroupsAndBundle() throws {
        let fixture = try Fixture.standard()
        let before = TreeSnapshot(fixture.path)
        let out = try TemporaryTree("simulator-audit")
        let result = try Self.run([
            "audit", "--simulator", "booted", "--app", Fixture.chat, "--device-set", fixture.path,
            "--output", out.path("report"), "--format", "json", "--fail-on", "never", "--quiet",
        ])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(TreeSnapshot(fixture.path) == before)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("report/report.json"))))
                as? [String: Any])
        let container = try #require(report["container"] as? [String: Any])
        #expect(container["layout"] as? String == "simulator")
        #expect(
            container["root"] as? String == (try fixture.container(Fixture.bootedPhone, Fixture.chat, "dataContainer")))
        #expect(container["bundleIdentifier"] as? String == Fixture.chat)
        let bundle = try #require(report["appBundle"] as? [String: Any])
        #expect(bundle["path"] as? String == (try fixture.container(Fixture.bootedPhone, Fixture.chat, "appBundle")))
        let groups = try #require(report["appGroups"] as? [[String: Any]])
        #expect(
            groups.compactMap { $0["identifier"] as? String } == [
                "group.com.example.chat", "group.com.example.shared", "com.example.chat.widget",
            ])
        #expect(
            groups.first?["path"] as? String
                == (try fixture.container(Fixture.bootedPhone, "group.com.example.chat", "groupContainer")))
        // LINE's app size with no extra flag: bundle + data container without Caches + groups (and extensions' data).
        let appSize = try #require((report["totals"] as? [String: Any])?["appSize"] as? [String: Int64])
        #expect(
            appSize["bundleBytes"]
                == (try DiskUsage.bytes(try fixture.container(Fixture.bootedPhone, Fixture.chat, "appBundle"))))
        let groupPaths = try groups.map { try #require($0["path"] as? String) }
        #expect(appSize["appGroupBytes"] == (try groupPaths.reduce(0) { $0 + (try DiskUsage.bytes($1)) }))
        #expect(
            appSize["totalBytes"] == appSize["bundleBytes"]! + appSize["containerWithoutCachesBytes"]! + appSize[
                "appGroupBytes"]!)

        // By UDID (any case) the other phone's copy of the same app.
        let other = try Self.run([
            "audit", "--simulator", Fixture.olderPhone.lowercased(), "--app", Fixture.chat, "--device-set",
            fixture.path,
            "--output", out.path("other"), "--format", "json", "--fail-on", "never", "--quiet",
        ])
        try #require(other.status == 0, "\(other.stderr)")
        let otherReport = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("other/report.json"))))
                as? [String: Any])
        #expect(
            (otherReport["container"] as? [String: Any])?["root"] as? String
                == (try fixture.container(Fixture.olderPhone, Fixture.chat, "dataContainer")))
        #expect(TreeSnapshot(fixture.path) == before)
    }

    @Test func refusesAmbiguousDevicesUnknownAppsAndMixedInputs() throws {
        let fixture = try Fixture.standard()
        let out = try TemporaryTree("simulator-refusals")
        let ambiguous = try Self.run([
            "audit", "--simulator", "iPhone 15", "--app", Fixture.chat, "--device-set", fixture.path, "--output",
            out.path("a"),
        ])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("2 simulator devices match 'iPhone 15'"))
        #expect(ambiguous.stderr.contains(Fixture.bootedPhone) && ambiguous.stderr.contains(Fixture.olderPhone))
        #expect(ambiguous.stderr.contains("iOS 18.1"))
        #expect(!FileManager.default.fileExists(atPath: out.path("a")))

        let unknown = try Self.run([
            "audit", "--simulator", "booted", "--app", "com.example.caht", "--device-set", fixture.path, "--output",
            out.path("b"),
        ])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr.contains(
                "'com.example.caht' is not installed on iPhone 15 (iOS 17.5, \(Fixture.bootedPhone)); the nearest installed ids: com.example.chat"
            ))

        let noDevice = try Self.run([
            "audit", "--simulator", "iPhone 99", "--app", Fixture.chat, "--device-set", fixture.path,
        ])
        #expect(noDevice.status == 1)
        #expect(noDevice.stderr.contains("no simulator device is named or has the UDID 'iPhone 99'"))

        let mixed = try Self.run(["audit", "somewhere", "--simulator", "booted", "--app", Fixture.chat])
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("give no CONTAINER with it"))
        let noApp = try Self.run(["audit", "--simulator", "booted"])
        #expect(noApp.status == 64)
        #expect(noApp.stderr.contains("--simulator needs --app"))
        let missingSet = try Self.run(["simulators", "--device-set", out.path("none")])
        #expect(missingSet.status == 1)
        #expect(missingSet.stderr.contains("cannot read the simulator device set"))
        // Without --device-set, a machine with no Xcode (an empty home here) is told how to give one.
        let home = try TemporaryTree("home")
        let noSet = try StocktakeProcess.run(["simulators"], environment: ["HOME": home.root], timeout: 120)
        #expect(noSet.status == 1)
        #if os(Linux)
            #expect(noSet.stderr.contains("give it with --device-set PATH"), "\(noSet.stderr)")
        #endif
    }

    /// A Mac in a closet keeps the history of simulator apps: no inbox, the app audited every night where it
    /// is, diffed against the night before; an app that is gone fails alone.
    @Test func nightlyAuditsSimulatorAppsEveryNight() throws {
        let fixture = try Fixture.standard()
        let before = TreeSnapshot(fixture.path)
        let reports = try TemporaryTree("simulator-nightly")
        let arguments = [
            "nightly", reports.path("reports"), "--simulator", "booted", "--app", Fixture.chat, "--device-set",
            fixture.path, "--fail-on", "never",
        ]
        for night in ["1700000000", "1700086400"] {
            let result = try StocktakeProcess.run(arguments, environment: ["SOURCE_DATE_EPOCH": night], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stdout.isEmpty && result.stderr.isEmpty, "silent on success: \(result.stdout) \(result.stderr)")
        }
        #expect(TreeSnapshot(fixture.path) == before)
        let app = reports.path("reports/\(Fixture.chat)")
        let runs = try FileManager.default.contentsOfDirectory(atPath: app).filter { $0 != "latest" }.sorted()
        #expect(runs.count == 2)
        let latest = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: app + "/latest/report.json")))
                as? [String: Any])
        #expect((latest["container"] as? [String: Any])?["layout"] as? String == "simulator")
        #expect(FileManager.default.fileExists(atPath: app + "/latest/diff.json"))

        let gone = try StocktakeProcess.run(
            [
                "nightly", reports.path("reports"), "--simulator", "booted", "--app", "com.example.gone", "--app",
                Fixture.chat, "--device-set", fixture.path,
                "--fail-on", "never",
            ], timeout: 120)
        #expect(gone.status == 1)
        #expect(
            gone.stderr.contains("com.example.gone on booted: 'com.example.gone' is not installed"), "\(gone.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: app).filter { $0 != "latest" }.count == 3)
    }
}
