import Foundation
import TestSupport
import Testing

/// Secrets at rest wherever they are, through the real binary: text in Caches and tmp (device-only: a warning
/// that says so), names that are themselves tokens (shown by their shape), and secrets shipped in the app
/// bundle's Info.plist (a `hardcoded-credential` error, and the metadata shown by shape). No output, in any
/// format, holds a planted value or a hash of one.
@Suite struct SecretExposureAuditTests {
    static let tokenName = "k3J9xQ2mW8vL5nR1tY7bZ4cF6hD0sG2a"
    static let secrets = [
        "Rt5yU8iO2pA4sD6fG9hJ1kL3zX7cV0bN", "Mq2Wn4Er6Ty8Ui0Op3As5Df7", tokenName, "Jf8Kd2Ls9Qp4Wm7Zx1Nv3Bc6",
        "sk_live_4eC39HqLyjWDarjtT1zdp7dcQz8Lm2", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8Lm2Rt5y", "Serv3rPassw0rd!",
    ]

    static func container() throws -> (TemporaryTree, String) {
        let tree = try TemporaryTree("exposure")
        let script = #"""
            import os, plistlib, sys
            root, bundle = sys.argv[1], sys.argv[2]
            def path(p, base=None):
                full = os.path.join(base or root, p); os.makedirs(os.path.dirname(full), exist_ok=True); return full
            open(path("Library/Caches/Logs/api.log"), "w").write("POST /login 200\nAuthorization: Bearer Rt5yU8iO2pA4sD6fG9hJ1kL3zX7cV0bN\n")
            open(path("tmp/session.json"), "w").write('{"access_token": "Mq2Wn4Er6Ty8Ui0Op3As5Df7"}\n')
            plistlib.dump({"k3J9xQ2mW8vL5nR1tY7bZ4cF6hD0sG2a": {"accessToken": "Jf8Kd2Ls9Qp4Wm7Zx1Nv3Bc6"}, "theme": "dark",
                           "authToken": "authToken", "currencyArrayKey": "currencyArrayKey"},
                          open(path("Library/Preferences/com.example.app.plist"), "wb"), fmt=plistlib.FMT_BINARY)
            plistlib.dump({"CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": "1.0",
                           "StripeSecretKey": "sk_live_4eC39HqLyjWDarjtT1zdp7dcQz8Lm2",
                           "AWSSecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8Lm2Rt5y", "ServerPassword": "Serv3rPassw0rd!",
                           "GMSApiKey": "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "StripePublishableKey": "pk_live_51H8nLwKx2yZp4Qr7StUvWxYz0123"},
                          open(path("Info.plist", bundle), "wb"))
            """#
        let bundle = tree.path("Example.app")
        let result = try StocktakeProcess.runCommand(["python3", "-c", script, tree.path("container"), bundle])
        try #require(result.status == 0, "\(result.stderr)")
        return (tree, bundle)
    }

    @Test func secretsInCachesTmpNamesAndTheBundle() throws {
        let (tree, bundle) = try Self.container()
        let out = try TemporaryTree("exposure-out")
        let result = try StocktakeProcess.run(
            [
                "audit", tree.path("container"), "--app-bundle", bundle, "--output", out.path("r"),
                "--format", "json,html,sarif,junit,markdown,github,ncdu", "--fail-on", "never",
            ], timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r/report.json"))))
                as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        func find(_ path: String) -> [[String: Any]] { findings.filter { $0["path"] as? String == path } }

        // Caches and tmp are read; device-only is a warning whose message says so.
        for path in ["Library/Caches/Logs/api.log", "tmp/session.json"] {
            let found = find(path).filter { $0["rule"] as? String == "secret-in-text-file" }
            #expect(found.count == 1, "\(path)")
            #expect(found.first?["severity"] as? String == "warning")
            #expect((found.first?["message"] as? String)?.contains("device-only") == true, "\(found)")
        }
        // A key that is a token is shown by its shape; the key's own name and an identifier are not secrets.
        let preferences = find("Library/Preferences/com.example.app.plist")
        #expect(preferences.count == 1, "\(preferences)")
        #expect(
            (preferences.first?["message"] as? String)?.contains("key <token, 32 chars>.accessToken") == true,
            "\(preferences)")

        // Info.plist: three shipped secrets, each an error; the publishable and Google keys are not.
        let bundled = findings.filter { $0["rule"] as? String == "hardcoded-credential" }
        #expect(bundled.count == 3, "\(bundled)")
        #expect(
            bundled.allSatisfy {
                $0["severity"] as? String == "error" && $0["path"] as? String == "Example.app/Info.plist"
            })
        let info = try #require((report["appBundle"] as? [String: Any])?["infoPlist"] as? [String: Any])
        #expect(info["CFBundleShortVersionString"] as? String == "1.0", "metadata is still shown")
        #expect((info["ServerPassword"] as? String)?.hasPrefix("<password, ") == true, "\(info)")
        #expect((info["StripeSecretKey"] as? String)?.hasPrefix("<API key, ") == true, "\(info)")

        // Every file written and everything printed, searched for every planted value and its hashes.
        var outputs = [result.stdout, result.stderr]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path("r")) {
            outputs.append(try String(contentsOfFile: out.path("r/" + name), encoding: .utf8))
        }
        let hashes = try StocktakeProcess.runCommand(
            [
                "python3", "-c",
                """
                import hashlib, sys, base64
                for s in sys.argv[1:]:
                    for h in (hashlib.sha256, hashlib.sha1, hashlib.md5):
                        d = h(s.encode()).digest(); print(d.hex()); print(base64.b64encode(d).decode())
                """,
            ] + Self.secrets)
        try #require(hashes.status == 0, "\(hashes.stderr)")
        let needles = Self.secrets + hashes.stdout.split(separator: "\n").map(String.init)
        for needle in needles {
            for (index, output) in outputs.enumerated() {
                #expect(!output.contains(needle), "output \(index) repeats \(needle.prefix(6))…")
            }
        }

        // A diff of two runs shows places the same way.
        let second = try StocktakeProcess.run(
            [
                "audit", tree.path("container"), "--app-bundle", bundle, "--output", out.path("s"), "--format", "json",
                "--fail-on", "never", "--quiet",
            ], timeout: 120)
        try #require(second.status == 0, "\(second.stderr)")
        let diff = try StocktakeProcess.run(
            ["diff", out.path("r/report.json"), out.path("s/report.json")], timeout: 60)
        for needle in needles { #expect(!diff.stdout.contains(needle) && !diff.stderr.contains(needle)) }
    }
}
