import Foundation
import TestSupport
import Testing

@testable import StocktakeScan

@Suite("Simulator device sets")
struct DeviceSetTests {
    typealias Fixture = DeviceSetFixture

    @Test func listsEveryDeviceWithItsRuntimeAndState() throws {
        let fixture = try Fixture.standard()
        let set = try DeviceSet.read(fixture.path)
        #expect(set.devices.map(\.udid) == [Fixture.tablet, Fixture.bootedPhone, Fixture.olderPhone])
        let phone = try #require(set.devices.first { $0.udid == Fixture.bootedPhone })
        #expect(phone.name == "iPhone 15")
        #expect(phone.runtime == "iOS 17.5")
        #expect(phone.deviceType == "iPhone 15")
        #expect(phone.state == .booted)
        #expect(set.devices.first { $0.udid == Fixture.olderPhone }?.runtime == "iOS 18.1")
        #expect(set.devices.first { $0.udid == Fixture.tablet }?.deviceType == "iPad Air 11 inch M2")
        #expect(set.problems.isEmpty)
    }

    @Test func findsEachAppsContainersOnItsOwnDevice() throws {
        let fixture = try Fixture.standard()
        let set = try DeviceSet.read(fixture.path)
        for udid in [Fixture.bootedPhone, Fixture.olderPhone] {
            let device = try set.device(matching: udid)
            let chat = try set.app(Fixture.chat, on: device)
            #expect(chat.dataContainer == (try fixture.container(udid, Fixture.chat, "dataContainer")))
            #expect(chat.appBundle == (try fixture.container(udid, Fixture.chat, "appBundle")))
            #expect(chat.isSystem == false)
            #expect(chat.groupMatch == .entitlements)
            #expect(chat.plugins.map(\.identifier) == ["com.example.chat.widget"])
        }
        let booted = try set.app(Fixture.chat, on: try set.device(matching: "booted"))
        // The widget's entitlements add the shared group; the notes app's group is not the chat app's.
        #expect(booted.appGroups.map(\.identifier) == ["group.com.example.chat", "group.com.example.shared"])
        #expect(
            booted.appGroups[0].path
                == (try fixture.container(Fixture.bootedPhone, "group.com.example.chat", "groupContainer")))
    }

    @Test func tellsUserAppsFromApplesAndMatchesGroupsByNameWithoutEntitlements() throws {
        let fixture = try Fixture.standard()
        let set = try DeviceSet.read(fixture.path)
        let apps = set.apps(on: try set.device(matching: Fixture.bootedPhone))
        #expect(
            apps.map(\.bundleIdentifier) == [
                "com.example.chat", "com.example.notes", "com.apple.Preferences", "com.apple.mobilesafari",
            ])
        let safari = try #require(apps.first { $0.bundleIdentifier == "com.apple.mobilesafari" })
        #expect(safari.isSystem && safari.appBundle == nil && safari.groupMatch == .name)
        #expect(safari.appGroups.map(\.identifier) == ["group.com.apple.mobilesafari"])
        let notes = try #require(apps.first { $0.bundleIdentifier == "com.example.notes" })
        #expect(notes.groupMatch == .name)
        #expect(notes.appGroups.map(\.identifier) == ["group.com.example.notes"])
    }

    /// A metadata plist iOS wrote (from the real-world corpus), not one the script made, names its app.
    @Test(.enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func aRealMetadataPlistNamesItsApp() throws {
        let fixture = try Fixture.standard(realMetadata: try RealCorpus.path(Fixture.realMetadataInCorpus))
        let set = try DeviceSet.read(fixture.path)
        let apps = set.apps(on: try set.device(matching: Fixture.bootedPhone))
        #expect(
            apps.map(\.bundleIdentifier) == [
                "com.example.chat", "com.example.notes", "com.apple.Preferences", "com.apple.mobilesafari",
                "io.github.paulz.WeightTracker",
            ])
        let real = try #require(apps.first { $0.bundleIdentifier == "io.github.paulz.WeightTracker" })
        #expect(real.dataContainer == (try fixture.container(Fixture.bootedPhone, "real", "dataContainer")))
    }

    @Test func readsEntitlementsWhereverBuildsPutThem() throws {
        for kind in ["section", "signature", "fat", "xcent"] {
            let fixture = try Fixture([
                "devices": [
                    [
                        "udid": "A", "name": "d", "runtime": "iOS-17-0", "deviceType": "iPhone-15", "state": 3,
                        "apps": [
                            [
                                "id": "com.example.a", "executable": "A", "entitlements": kind,
                                "groups": ["group.unrelated.name"], "data": [:] as [String: Any],
                            ]
                        ],
                        "groups": [
                            "group.unrelated.name": [:] as [String: Any], "group.com.example.a": [:] as [String: Any],
                        ],
                    ]
                ]
            ])
            let set = try DeviceSet.read(fixture.path)
            let app = try set.app("com.example.a", on: try set.device(matching: "A"))
            #expect(app.groupMatch == .entitlements, "\(kind)")
            #expect(app.appGroups.map(\.identifier) == ["group.unrelated.name"], "\(kind)")
        }
    }

    @Test func refusesAmbiguousAndUnknownDevicesListingTheCandidates() throws {
        let fixture = try Fixture.standard()
        let set = try DeviceSet.read(fixture.path)
        #expect(try set.device(matching: Fixture.tablet.lowercased()).udid == Fixture.tablet)
        #expect(try set.device(matching: "iPad Air 11-inch (M2)").udid == Fixture.tablet)
        let ambiguous = #expect(throws: SimulatorError.self) { try set.device(matching: "iPhone 15") }
        let message = ambiguous?.description ?? ""
        #expect(message.hasPrefix("2 simulator devices match 'iPhone 15'"))
        #expect(message.contains("\(Fixture.bootedPhone)  iPhone 15  iOS 17.5  Booted"))
        #expect(message.contains("\(Fixture.olderPhone)  iPhone 15  iOS 18.1  Shutdown"))
        let unknown = #expect(throws: SimulatorError.self) { try set.device(matching: "iPhone 99") }
        #expect(unknown?.description.contains(Fixture.tablet) == true)
        let apps = #expect(throws: SimulatorError.self) {
            try set.app("com.example.chta", on: try set.device(matching: "booted"))
        }
        #expect(
            apps?.description
                == "'com.example.chta' is not installed on iPhone 15 (iOS 17.5, \(Fixture.bootedPhone)); the nearest installed ids: com.example.chat, com.example.notes, com.apple.Preferences"
        )
    }

    @Test func refusesBootedWhenNoneOrSeveralAre() throws {
        let none = try Fixture([
            "devices": [["udid": "A", "name": "a", "runtime": "iOS-17-0", "deviceType": "x", "state": 1]]
        ])
        let noneError = #expect(throws: SimulatorError.self) {
            try DeviceSet.read(none.path).device(matching: "booted")
        }
        #expect(noneError?.description.contains("no simulator device is booted") == true)
        let two = try Fixture([
            "devices": [
                ["udid": "A", "name": "a", "runtime": "iOS-17-0", "deviceType": "x", "state": 3],
                ["udid": "B", "name": "b", "runtime": "iOS-17-0", "deviceType": "x", "state": 3],
            ]
        ])
        let twoError = #expect(throws: SimulatorError.self) { try DeviceSet.read(two.path).device(matching: "BOOTED") }
        #expect(twoError?.description.hasPrefix("2 simulator devices match 'BOOTED'") == true)
    }

    @Test func passesOverWhatIsNotADeviceAndReportsMalformedPlists() throws {
        let fixture = try Fixture.standard()
        try fixture.tree.write("Devices/BROKEN/device.plist", string: "<plist><dict><key>UDID</key></dict></plist>")
        try fixture.tree.write("Devices/.DS_Store", string: "x")
        try fixture.tree.mkdir("Devices/NoPlist")
        let set = try DeviceSet.read(fixture.path)
        #expect(set.devices.count == 3)
        #expect(set.problems.count == 1)
        #expect(set.problems.first?.contains("BROKEN/device.plist") == true)
        let notASet = try TemporaryTree("notaset")
        try notASet.write("file.txt", string: "x")
        #expect(throws: SimulatorError.notADeviceSet(path: notASet.path(""))) { try DeviceSet.read(notASet.path("")) }
        #expect(throws: SimulatorError.self) { try DeviceSet.read(notASet.path("missing")) }
    }

    /// A container folder that is a link elsewhere is not followed: its app is not listed.
    @Test func neverFollowsALinkedContainer() throws {
        let fixture = try Fixture.standard()
        let outside = try TemporaryTree("outside")
        try outside.write(
            "Evil/.com.apple.mobile_container_manager.metadata.plist",
            string:
                "<plist><dict><key>MCMMetadataIdentifier</key><string>com.evil.app</string></dict></plist>")
        let data = URL(fileURLWithPath: try fixture.container(Fixture.bootedPhone, Fixture.chat, "dataContainer"))
            .deletingLastPathComponent().path
        try FileManager.default.createSymbolicLink(atPath: data + "/LINKED", withDestinationPath: outside.path("Evil"))
        let set = try DeviceSet.read(fixture.path)
        #expect(!set.apps(on: try set.device(matching: "booted")).contains { $0.bundleIdentifier == "com.evil.app" })
    }

    /// Executables are someone else's bytes: every truncation and many mutations of a signed one read as
    /// entitlements or none, never a trap.
    @Test func hostileExecutablesNeverTrap() throws {
        let fixture = try Fixture([
            "devices": [
                [
                    "udid": "A", "name": "d", "runtime": "iOS-17-0", "deviceType": "x", "state": 3,
                    "apps": [
                        [
                            "id": "com.example.a", "executable": "A", "entitlements": "fat", "groups": ["group.a"],
                            "data": [:] as [String: Any],
                        ],
                        [
                            "id": "com.example.b", "executable": "B", "entitlements": "section", "groups": ["group.b"],
                            "data": [:] as [String: Any],
                        ],
                    ],
                ]
            ]
        ])
        for (id, name) in [("com.example.a", "A"), ("com.example.b", "B")] {
            let executable = try fixture.container("A", id, "appBundle") + "/" + name
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: executable)))
            #expect(try MachOEntitlements.read(executable: executable) != nil)
            let scratch = try TemporaryTree("macho")
            for length in stride(from: 0, to: bytes.count, by: 7) {
                try scratch.write("x", bytes: Array(bytes.prefix(length)))
                _ = try MachOEntitlements.read(executable: scratch.path("x"))
            }
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<300 {
                var mutated = bytes
                for _ in 0..<3 {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
                try scratch.write("x", bytes: mutated)
                _ = try MachOEntitlements.read(executable: scratch.path("x"))
            }
        }
    }
}
