import Foundation
import TestSupport
import Testing

/// `stocktake devices` and `stocktake audit --device` through the real binary, against a stand-in devicectl
/// (`DevicectlStandIn`): what is listed, what the report says about the copied container, every refusal, and
/// that the copy never outlives the run, whether it succeeds, fails, or is interrupted.
@Suite struct DeviceCommandTests {
    typealias StandIn = DevicectlStandIn

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func report(_ path: String) throws -> [String: Any] {
        try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func listsDevicesAndTheirApps() throws {
        let standIn = try StandIn()
        let listed = try standIn.run(["devices", "--format", "json"])
        try #require(listed.status == 0, "\(listed.stderr)")
        let devices = try #require(try Self.json(listed.stdout)["devices"] as? [[String: Any]])
        #expect(devices.map { $0["identifier"] as? String } == [StandIn.phone, StandIn.locked])
        let phone = devices[0]
        #expect(phone["name"] as? String == "Anna's iPhone")
        #expect(phone["udid"] as? String == StandIn.phoneUDID)
        #expect(phone["model"] as? String == "iPhone 15 Pro")
        #expect(phone["osVersion"] as? String == "17.5")
        #expect(phone["pairingState"] as? String == "paired")
        #expect(phone["developerMode"] as? String == "enabled")

        let text = try standIn.run(["devices"])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("2 devices"))
        #expect(
            text.stdout.contains(
                "Anna's iPhone  \(StandIn.phoneUDID)  iPhone 15 Pro  iOS 17.5  paired  Developer Mode enabled"))

        let apps = try standIn.run(["devices", "--apps", StandIn.phoneUDID, "--format", "json"])
        try #require(apps.status == 0, "\(apps.stderr)")
        let listing = try Self.json(apps.stdout)
        #expect((listing["device"] as? [String: Any])?["identifier"] as? String == StandIn.phone)
        let rows = try #require(listing["apps"] as? [[String: Any]])
        #expect(
            rows.map { $0["bundleIdentifier"] as? String } == ["com.apple.mobilesafari", StandIn.app, StandIn.storeApp])
        #expect(rows.map { $0["copyable"] as? Bool } == [false, true, false])
        let appsText = try standIn.run(["devices", "--apps", "Anna's iPhone"])
        #expect(appsText.stdout.contains("\(StandIn.app)  Chat  1.2 (7)  copyable"))
        #expect(appsText.stdout.contains("\(StandIn.storeApp)  Store  1.2 (7)  not development-signed"))
        #expect(standIn.leftovers.isEmpty)
    }

    @Test func auditsTheCopiedContainerAndRemovesTheCopy() throws {
        let standIn = try StandIn()
        let out = try TemporaryTree("device-out")
        let result = try standIn.run([
            "audit", "--device", StandIn.phoneUDID, "--app", StandIn.app, "--app-group", StandIn.group,
            "--output", out.path("r"), "--format", "json,html,sarif,junit,markdown,ncdu", "--fail-on", "never",
            "--quiet",
        ])
        try #require(result.status == 0, "\(result.stderr)")
        let report = try Self.report(out.path("r/report.json"))
        let container = try #require(report["container"] as? [String: Any])
        #expect(container["bundleIdentifier"] as? String == StandIn.app)
        #expect(container["bundleIdentifierSource"] as? String == "option")
        #expect(container["layout"] as? String == "dataContainer")
        let device = try #require(container["device"] as? [String: Any])
        #expect(device["name"] as? String == "Anna's iPhone")
        #expect(device["identifier"] as? String == StandIn.phone)
        #expect(device["udid"] as? String == StandIn.phoneUDID)
        #expect(device["model"] as? String == "iPhone 15 Pro")
        #expect(device["osVersion"] as? String == "17.5")
        #expect(
            device["copiedWith"] as? String
                == "xcrun devicectl device copy from --device \(StandIn.phone) --domain-type appDataContainer "
                + "--domain-identifier \(StandIn.app) --source /")
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(
            findings.contains {
                $0["rule"] as? String == "secret-in-text-file" && $0["path"] as? String == "Library/Caches/Logs/api.log"
            }, "\(findings)")
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.contains { $0["path"] as? String == "Documents/notes.txt" })
        let groups = try #require(report["appGroups"] as? [[String: Any]])
        #expect(groups.map { $0["identifier"] as? String } == [StandIn.group])
        let html = try String(contentsOfFile: out.path("r/report.html"), encoding: .utf8)
        #expect(html.contains("iPhone 15 Pro") && html.contains("devicectl device copy from"))
        for name in ["report.sarif", "report.junit.xml", "summary.md", "report.ncdu.json"] {
            #expect(FileManager.default.fileExists(atPath: out.path("r/" + name)), "\(name)")
        }
        // No planted secret in any report, and no copy left behind.
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path("r")) {
            let text = try String(contentsOfFile: out.path("r/" + name), encoding: .utf8)
            #expect(!text.contains(StandIn.token), "\(name)")
        }
        #expect(standIn.leftovers.isEmpty, "\(standIn.leftovers)")
        let copies = standIn.calls.filter { $0.starts(with: ["devicectl", "device", "copy", "from"]) }
        #expect(copies.count == 2)
        #expect(copies.allSatisfy { $0.contains(StandIn.phone) && $0.contains("--source") })
        #expect(copies.last?.contains("appGroupDataContainer") == true)
    }

    @Test func anAuditThatFailsAfterTheCopyLeavesNoCopy() throws {
        let standIn = try StandIn()
        let out = try TemporaryTree("device-out")
        try out.write("taken", string: "a file where the reports' folder would go")
        let result = try standIn.run([
            "audit", "--device", "Anna's iPhone", "--app", StandIn.app, "--output", out.path("taken/r"), "--quiet",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("output folder"), "\(result.stderr)")
        #expect(standIn.calls.contains { $0.starts(with: ["devicectl", "device", "copy", "from"]) })
        #expect(standIn.leftovers.isEmpty, "\(standIn.leftovers)")

        // A policy failure (exit 2) after the reports are written: the copy is gone too.
        let failing = try standIn.run([
            "audit", "--device", StandIn.phone, "--app", StandIn.app, "--output",
            out.path("r"), "--format", "json", "--fail-on", "warning", "--quiet",
        ])
        #expect(failing.status == 2, "\(failing.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.path("r/report.json")))
        #expect(standIn.leftovers.isEmpty, "\(standIn.leftovers)")
    }

    /// Each refusal: exit 1, a message naming the device or app and saying what to do, nothing copied, nothing left.
    @Test func refusalsSayWhatToDo() throws {
        let out = try TemporaryTree("device-out")
        func refused(
            _ standIn: StandIn, device: String = StandIn.phoneUDID, app: String = StandIn.app, _ expected: [String],
            copies: Bool = false
        ) throws {
            let result = try standIn.run(["audit", "--device", device, "--app", app, "--output", out.path("r")])
            #expect(result.status == 1, "\(expected): \(result.stderr)")
            for text in expected { #expect(result.stderr.contains(text), "\(text) not in: \(result.stderr)") }
            #expect(
                standIn.calls.contains { $0.starts(with: ["devicectl", "device", "copy"]) } == copies, "\(expected)")
            #expect(!FileManager.default.fileExists(atPath: out.path("r/report.json")))
            #expect(standIn.leftovers.isEmpty, "\(standIn.leftovers)")
        }
        // No xcrun at all.
        let bare = try StandIn()
        try FileManager.default.removeItem(atPath: bare.tree.path("bin/xcrun"))
        let noXcrun = try StocktakeProcess.run(
            ["devices"], environment: bare.environment.merging(["PATH": bare.tree.path("bin")]) { $1 }, timeout: 120)
        #expect(noXcrun.status == 1)
        #expect(noXcrun.stderr.contains("xcrun was not found on PATH"), "\(noXcrun.stderr)")
        #expect(noXcrun.stderr.contains("Xcode 15 or later on a Mac"))

        try refused(
            try StandIn(), device: "Bob's iPhone",
            [
                "no device is named or has the UDID or identifier 'Bob's iPhone'", "Anna's iPhone", StandIn.phoneUDID,
                "Test iPad",
            ])
        let unpaired = try StandIn()
        unpaired.config["devices"] = [
            StandIn.device(StandIn.phone, udid: StandIn.phoneUDID, name: "Anna's iPhone", pairing: "unpaired")
        ]
        try refused(unpaired, ["Anna's iPhone", "is not paired with this Mac", "tap Trust"])
        try refused(try StandIn(), device: StandIn.locked, ["passcode protected", StandIn.locked])
        let developerModeOff = try StandIn()
        developerModeOff.config["devices"] = [
            StandIn.device(StandIn.phone, udid: StandIn.phoneUDID, name: "Anna's iPhone", developerMode: "disabled")
        ]
        try refused(developerModeOff, ["Developer Mode is off on Anna's iPhone", "Settings > Privacy & Security"])
        try refused(
            try StandIn(), app: "com.example.missing",
            [
                "'com.example.missing' is not installed on Anna's iPhone",
                "development-signed apps on it: \(StandIn.app)",
            ])
        try refused(
            try StandIn(), app: StandIn.storeApp,
            ["'\(StandIn.storeApp)' on Anna's iPhone (", "is not development-signed", "install a build from Xcode"])
        let halfway = try StandIn()
        halfway.config["copy"] = "halfway"
        try refused(
            halfway,
            [
                "copying '\(StandIn.app)' from Anna's iPhone", "nothing was audited",
                "connection to the device was lost",
            ],
            copies: true)
        // devicectl's JSON without what is needed: the missing field is named.
        let malformed = try StandIn()
        malformed.config["devices"] = [["deviceProperties": ["name": "No Identifier"]]]
        try refused(malformed, ["result.devices[0].identifier is missing"])
        // Ids that are not ids never reach devicectl.
        let hostile = try StandIn()
        let usage = try hostile.run(["audit", "--device", StandIn.phone, "--app", "com.example;rm -rf ~"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("is no bundle or group id"))
        #expect(hostile.calls.isEmpty)
    }

    /// A device's name is the device owner's to choose: it cannot drive the terminal or forge a line, and a name
    /// two devices share is refused with both.
    @Test func hostileAndSharedNames() throws {
        let standIn = try StandIn()
        let hostile = "Phone\u{1B}[2J\n::error::forged"
        standIn.config["devices"] = [
            StandIn.device(StandIn.phone, udid: StandIn.phoneUDID, name: hostile),
            StandIn.device(StandIn.locked, udid: "00008110-000A1B2C3D4E5F60", name: "iPad"),
            StandIn.device("2B3C4D5E-6F70-4A8B-9C0D-1E2F3A4B5C6D", udid: "00008110-000B", name: "iPad"),
        ]
        let listed = try standIn.run(["devices"])
        try #require(listed.status == 0, "\(listed.stderr)")
        #expect(!listed.stdout.contains("\u{1B}"))
        #expect(!listed.stdout.split(separator: "\n").contains { $0.hasPrefix("::error::") })
        let json = try standIn.run(["devices", "--format", "json"])
        let devices = try #require(try Self.json(json.stdout)["devices"] as? [[String: Any]])
        #expect(devices.first?["name"] as? String == hostile)

        let shared = try standIn.run(["audit", "--device", "iPad", "--app", StandIn.app])
        #expect(shared.status == 1)
        #expect(shared.stderr.contains("2 devices are named 'iPad'; give one's UDID or identifier"), "\(shared.stderr)")
        #expect(
            shared.stderr.contains(StandIn.locked) && shared.stderr.contains("2B3C4D5E-6F70-4A8B-9C0D-1E2F3A4B5C6D"))
        #expect(standIn.leftovers.isEmpty)
    }

    @Test(arguments: [SIGINT, SIGTERM]) func anInterruptedCopyIsRemoved(signal: Int32) throws {
        let standIn = try StandIn()
        standIn.config["copy"] = "sleep"
        try standIn.writeConfig()
        let out = try TemporaryTree("device-out")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try StocktakeProcess.binary)
        process.arguments = ["audit", "--device", StandIn.phone, "--app", StandIn.app, "--output", out.path("r")]
        process.environment = ProcessInfo.processInfo.environment.merging(standIn.environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The stand-in writes its marker once part of the container is copied; then it waits to be stopped.
        var waited = 0
        while !FileManager.default.fileExists(atPath: standIn.tree.path("copy-started")) && process.isRunning
            && waited < 12_000
        {
            usleep(10_000)
            waited += 1
        }
        try #require(FileManager.default.fileExists(atPath: standIn.tree.path("copy-started")))
        #expect(!standIn.leftovers.isEmpty, "the copy is under way in the temporary folder")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        #expect(standIn.leftovers.isEmpty, "\(standIn.leftovers)")
        #expect(!FileManager.default.fileExists(atPath: out.path("r/report.json")))
    }
}
