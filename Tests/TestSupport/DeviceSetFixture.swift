import Foundation

/// A CoreSimulator device set laid out as Xcode writes it, written by `Tests/Scripts/make_device_set.py` from
/// a spec; the script says where it put each container (UUID folders are random), the truth tests compare
/// against. `standard` is the set most tests use.
package final class DeviceSetFixture {
    package static let script = Repository.path("Tests/Scripts/make_device_set.py")
    /// A real container-manager metadata plist iOS wrote, from the real-world corpus (`RealCorpus`).
    package static let realMetadataInCorpus = "samples/weighttracker-container-metadata.plist"

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package let tree: TemporaryTree
    /// The device set folder.
    package let path: String
    /// Per device UDID, per bundle or group id: `appBundle`, `dataContainer`, `groupContainer`.
    package let containers: [String: [String: [String: String]]]

    package init(_ spec: [String: Any], label: String = "devices") throws {
        tree = try TemporaryTree(label)
        path = tree.path("Devices")
        let specPath = tree.path("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        let result = try StocktakeProcess.runCommand(["python3", Self.script, path, specPath])
        guard result.status == 0 else { throw Failure(description: "make_device_set.py failed: \(result.stderr)") }
        containers = try JSONDecoder().decode([String: [String: [String: String]]].self, from: Data(result.stdout.utf8))
        try FileManager.default.removeItem(atPath: specPath)
    }

    package static let bootedPhone = "0E3B6C9A-1F2D-4C5B-9A8E-7D6C5B4A3F21"
    package static let olderPhone = "5A1D2C3B-4E5F-4A6B-8C7D-9E0F1A2B3C4D"
    package static let tablet = "9F8E7D6C-5B4A-4392-8172-6A5B4C3D2E1F"
    package static let chat = "com.example.chat"

    /// Three devices (two share a name), one booted; the chat app on two of them with an App Group and a
    /// widget; Apple's own apps beside it; an unsigned app. `realMetadata`: a real metadata plist (a path) for
    /// one more app on the booted phone, whose container the script lists as `real`.
    package static func standard(realMetadata: String? = nil) throws -> DeviceSetFixture {
        let chatApp: [String: Any] = [
            "id": chat, "executable": "Chat", "entitlements": "section", "groups": ["group.com.example.chat"],
            "extensions": [
                [
                    "id": "com.example.chat.widget", "executable": "ChatWidget", "entitlements": "section",
                    "groups": ["group.com.example.chat", "group.com.example.shared"],
                    "data": ["Library/Caches/timeline.json": 2_000],
                ]
            ],
            "data": [
                "Documents/messages.sqlite": 40_000, "Library/Caches/images/a.jpg": 9_000,
                "Library/Preferences/com.example.chat.plist": "x",
            ],
            "bundleFiles": ["Assets.car": 30_000],
        ]
        let apple: [[String: Any]] = [
            ["id": "com.apple.mobilesafari", "data": ["Library/Safari/History.db": 4_096]],
            ["id": "com.apple.Preferences", "data": [:] as [String: Any]],
        ]
        var spec: [String: Any] = [
            "devices": [
                [
                    "udid": bootedPhone, "name": "iPhone 15", "runtime": "iOS-17-5", "deviceType": "iPhone-15",
                    "state": 3,
                    "apps": [
                        chatApp,
                        [
                            "id": "com.example.notes", "executable": "Notes", "entitlements": NSNull(),
                            "data": ["Documents/n.txt": "n"],
                        ],
                    ],
                    "system": apple,
                    "groups": [
                        "group.com.example.chat": ["Library/Caches/shared.db": 12_000, "Documents/outbox.json": "{}"],
                        "group.com.example.shared": ["prefs.plist": 100],
                        "group.com.example.notes": ["n.db": 300],
                        "group.com.apple.mobilesafari": ["s": 10],
                    ],
                ],
                [
                    "udid": olderPhone, "name": "iPhone 15", "runtime": "iOS-18-1", "deviceType": "iPhone-15",
                    "state": 1, "plist": "xml",
                    "apps": [chatApp], "system": apple,
                    "groups": ["group.com.example.chat": ["Library/Caches/shared.db": 1_000]],
                ],
                [
                    "udid": tablet, "name": "iPad Air 11-inch (M2)", "runtime": "iOS-17-5",
                    "deviceType": "iPad-Air-11-inch-M2", "state": 1, "system": apple,
                ],
            ]
        ]
        if let realMetadata { spec["realMetadata"] = ["path": realMetadata, "device": 0] }
        return try DeviceSetFixture(spec)
    }

    /// Where the script put one container.
    package func container(_ udid: String, _ identifier: String, _ kind: String) throws -> String {
        guard let path = containers[udid]?[identifier]?[kind] else {
            throw Failure(description: "no \(kind) for \(identifier) on \(udid)")
        }
        return path
    }
}
