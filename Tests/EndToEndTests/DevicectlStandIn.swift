import Foundation
import TestSupport
import Testing

/// A stand-in for Xcode's `xcrun devicectl`, put first on PATH: a Python script answering `list devices`,
/// `device info apps` and `device copy from` with JSON files shaped as devicectl 341 (Xcode 15+) writes them,
/// and copying a container laid out in a fixture. What it answers is set per test in `config.json`; every
/// command it got is logged, one JSON array a line. `TMPDIR` points into the tree, so a test can see that
/// the copy is gone.
final class DevicectlStandIn {
    static let phone = "8A3B2C1D-0E9F-4A5B-8C7D-6E5F4A3B2C1D"
    static let phoneUDID = "00008130-001A2B3C4D5E6F70"
    static let locked = "1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9"
    static let app = "com.example.chat"
    static let group = "group.com.example.chat"
    static let storeApp = "com.example.store"
    static let token = "Rt5yU8iO2pA4sD6fG9hJ1kL3zX7cV0bN"

    let tree: TemporaryTree
    var config: [String: Any]

    init() throws {
        tree = try TemporaryTree("devicectl")
        try tree.mkdir("bin")
        try tree.mkdir("tmp")
        try tree.write("bin/xcrun", string: Self.script)
        chmod(tree.path("bin/xcrun"), 0o755)
        try Self.layOut(
            tree, "containers/" + Self.app,
            [
                "Documents/notes.txt": "shopping list\n",
                "Library/Caches/Logs/api.log": "POST /login 200\nAuthorization: Bearer \(Self.token)\n",
                "Library/Preferences/com.example.chat.plist": "not read here",
                "tmp/upload.part": String(repeating: "x", count: 5000),
            ])
        try Self.layOut(tree, "containers/" + Self.group, ["Library/Caches/shared.db": "group data\n"])
        config = [
            "log": tree.path("calls.log"), "marker": tree.path("copy-started"), "lockedDevice": Self.locked,
            "containers": [
                Self.app: tree.path("containers/" + Self.app), Self.group: tree.path("containers/" + Self.group),
            ],
            "devices": [
                Self.device(Self.phone, udid: Self.phoneUDID, name: "Anna's iPhone"),
                Self.device(Self.locked, udid: "00008110-000A1B2C3D4E5F60", name: "Test iPad", type: "iPad"),
            ],
            "apps": [
                Self.appRecord(Self.app, name: "Chat", developer: true),
                Self.appRecord(Self.storeApp, name: "Store", developer: false),
                Self.appRecord("com.apple.mobilesafari", name: "Safari", developer: false),
            ],
        ]
    }

    static func layOut(_ tree: TemporaryTree, _ root: String, _ files: [String: String]) throws {
        for (path, text) in files { try tree.write(root + "/" + path, string: text) }
    }

    /// One entry of `result.devices`, with the fields devicectl writes that Stocktake does not read.
    static func device(
        _ identifier: String, udid: String, name: String, type: String = "iPhone", pairing: String = "paired",
        developerMode: String = "enabled"
    ) -> [String: Any] {
        [
            "capabilities": [["featureIdentifier": "com.apple.coredevice.feature.copyfiles", "name": "Copy Files"]],
            "identifier": identifier,
            "deviceProperties": [
                "bootState": "booted", "developerModeStatus": developerMode, "name": name, "osVersionNumber": "17.5",
                "osBuildUpdate": "21F79", "ddiServicesAvailable": true,
            ],
            "hardwareProperties": [
                "udid": udid, "marketingName": type == "iPhone" ? "iPhone 15 Pro" : "iPad Air", "deviceType": type,
                "productType": type == "iPhone" ? "iPhone16,1" : "iPad13,16", "platform": "iOS", "reality": "physical",
                "cpuType": ["name": "arm64e", "subType": 2, "type": 16_777_228],
            ],
            "connectionProperties": [
                "pairingState": pairing, "tunnelState": "connected", "transportType": "wired",
                "authenticationType": "manualPairing",
            ],
            "visibilityClass": "default",
        ]
    }

    static func appRecord(_ id: String, name: String, developer: Bool) -> [String: Any] {
        [
            "appClip": false, "builtByDeveloper": developer, "bundleIdentifier": id, "bundleVersion": "7",
            "defaultApp": !developer, "hidden": false, "internalApp": false, "name": name, "removable": true,
            "url": "file:///private/var/containers/Bundle/Application/UUID/\(name).app/", "version": "1.2",
        ]
    }

    /// Runs `stocktake` with the stand-in first on PATH and TMPDIR in the tree.
    func run(_ arguments: [String]) throws -> ProcessResult {
        try writeConfig()
        let result = try StocktakeProcess.run(arguments, environment: environment, timeout: 120)
        #expect(!result.timedOut, "stocktake \(arguments.joined(separator: " ")) hung")
        return result
    }

    var environment: [String: String] {
        [
            "PATH": tree.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "TMPDIR": tree.path("tmp"), "STANDIN_CONFIG": tree.path("config.json"),
        ]
    }

    func writeConfig() throws {
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: tree.path("config.json")))
    }

    /// What is left in the temporary folder Stocktake used.
    var leftovers: [String] { (try? FileManager.default.contentsOfDirectory(atPath: tree.path("tmp"))) ?? ["?"] }

    /// Each devicectl command the stand-in got.
    var calls: [[String]] {
        let text = (try? String(contentsOfFile: tree.path("calls.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String]
        }
    }

    /// `mode`: "" copies, "halfway" copies part then fails, "sleep" copies part then waits to be stopped.
    /// `fail`: "device info apps" (say) answers with devicectl's error for a locked device.
    static let script = #"""
        #!/usr/bin/env python3
        import json, os, shutil, sys, time
        conf = json.load(open(os.environ["STANDIN_CONFIG"]))
        args = sys.argv[1:]
        with open(conf["log"], "a") as log:
            log.write(json.dumps(args) + "\n")
        if args[:1] != ["devicectl"] or "--json-output" not in args:
            sys.stderr.write("stand-in: unexpected arguments %r\n" % args)
            sys.exit(64)
        out = args[args.index("--json-output") + 1]
        command = " ".join(args[1:4]) if args[1] == "device" else " ".join(args[1:3])
        info = {"arguments": args, "commandType": "devicectl." + command.replace(" ", "."), "environment": {},
                "jsonVersion": 2, "outcome": "success", "version": "341"}
        def answer(body, status=0):
            with open(out, "w") as f:
                json.dump(body, f)
            sys.exit(status)
        def option(name):
            return args[args.index(name) + 1]
        def fail(message, code=1, plain=False):
            # devicectl's userInfo values come as {"string": …}; a plain string is read as well.
            info["outcome"] = "failed"
            text = message if plain else {"string": message}
            answer({"error": {"code": code, "domain": "com.apple.dt.CoreDeviceError",
                              "userInfo": {"NSLocalizedDescription": text}}, "info": info}, 1)
        if command in conf.get("fail", {}):
            fail(conf["fail"][command])
        if command == "list devices":
            answer({"info": info, "result": {"devices": conf["devices"]}})
        if command == "device info apps":
            if option("--device") == conf.get("lockedDevice"):
                fail("The device is passcode protected. (com.apple.mobile.lockdown.error error -5.)", 4)
            answer({"info": info, "result": {"apps": conf["apps"], "defaultAppsIncluded": False}})
        if command == "device copy from":
            source = conf["containers"][option("--domain-identifier")]
            destination = option("--destination")
            mode = conf.get("copy", "")
            if mode in ("halfway", "sleep"):
                shutil.copytree(os.path.join(source, "Documents"), os.path.join(destination, "Documents"))
                if mode == "halfway":
                    fail("The connection to the device was lost while copying Library/Caches.", plain=True)
                open(conf["marker"], "w").write(str(os.getpid()))
                time.sleep(600)
            shutil.copytree(source, destination, dirs_exist_ok=True)
            answer({"info": info, "result": {}})
        sys.exit(64)
        """#
}
