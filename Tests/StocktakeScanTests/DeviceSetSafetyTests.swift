import Foundation
import TestSupport
import Testing

@testable import StocktakeScan

/// The device set as untrusted input, read in process: links noted and not followed, copies and conflicts told
/// apart, companions given by exact signed ids or the longest installed id.
@Suite("Simulator device sets, read safely")
struct DeviceSetSafetyTests {
    typealias Fixture = DeviceSetFixture
    static let phone = "0E3B6C9A-1F2D-4C5B-9A8E-7D6C5B4A3F21"

    static func device(_ folder: String? = nil, _ extra: [String: Any] = [:]) -> [String: Any] {
        var spec: [String: Any] = [
            "udid": phone, "name": "iPhone 15", "runtime": "iOS-17-5", "deviceType": "iPhone-15", "state": 3,
        ]
        if let folder { spec["folder"] = folder }
        return spec.merging(extra) { $1 }
    }

    @Test func aCopyIsIgnoredWithWhy() throws {
        let copy = try Fixture(["devices": [Self.device(), Self.device(Self.phone + ".bak")]])
        let set = try DeviceSet.read(copy.path)
        #expect(set.devices.map(\.path) == [copy.path + "/" + Self.phone])
        #expect(set.notes.map(\.path) == [copy.path + "/" + Self.phone + ".bak"])
        #expect(set.notes.first?.message.contains("names the UDID \(Self.phone)") == true)
        #expect(try set.device(matching: Self.phone).path == copy.path + "/" + Self.phone)
    }

    /// Two folders naming one UDID in two cases: possible only on a case-sensitive volume.
    @Test(.enabled(if: CaseSensitivity.temporaryFolder, CaseSensitivity.hint))
    func aCaseTwinIsAConflict() throws {
        let twin = try Fixture(["devices": [Self.device(), Self.device(Self.phone.lowercased())]])
        let twins = try DeviceSet.read(twin.path)
        #expect(twins.devices.isEmpty && twins.conflicts.count == 1)
        let folders = [twin.path + "/" + Self.phone, twin.path + "/" + Self.phone.lowercased()].sorted()
        #expect(throws: SimulatorError.conflictingDevices(udid: Self.phone, folders: folders)) {
            try twins.device(matching: Self.phone)
        }
        #expect(throws: SimulatorError.conflictingDevices(udid: Self.phone, folders: folders)) {
            try twins.device(matching: "iPhone 15")
        }
    }

    @Test func linksAnywhereBelowTheSetAreNotedNotFollowed() throws {
        let outside = try TemporaryTree("outside")
        try outside.mkdir("Devices")
        let fixture = try Fixture([
            "devices": [Self.device(nil, ["links": ["data/Containers/Data": outside.path("Devices")]])]
        ])
        try FileManager.default.createSymbolicLink(
            atPath: fixture.path + "/LINKED-DEVICE", withDestinationPath: fixture.path + "/" + Self.phone)
        let set = try DeviceSet.read(fixture.path)
        #expect(set.devices.count == 1)
        #expect(set.notes.map(\.path) == [fixture.path + "/LINKED-DEVICE"])
        let contents = set.contents(of: set.devices[0])
        #expect(contents.notes.map(\.path) == [fixture.path + "/" + Self.phone + "/data/Containers/Data"])
        #expect(contents.notes[0].message.contains("not followed"))
    }

    @Test func theLongestInstalledIdOwnsAName() throws {
        let containers = SimulatorContainers(
            bundles: [:], data: ["com.a": "/1", "com.a.b": "/2", "com.ab": "/3"], groups: [:], plugins: [:],
            legacy: [:], notes: [])
        #expect(containers.owner(of: "com.a.b.widget") == "com.a.b")
        #expect(containers.owner(of: "com.a.c") == "com.a")
        #expect(containers.owner(of: "com.ab.x") == "com.ab")
        #expect(containers.owner(of: "com.abc") == nil)
        #expect(containers.owner(of: "com.a") == "com.a")
    }
}
