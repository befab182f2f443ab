import Foundation

/// Programs some tests use as oracles (xmllint, ncdu, jdupes, sha256sum, script, Chromium, …). On a
/// developer's machine a missing one skips its test with a message; in CI it fails the test instead, so a
/// green CI run means every oracle ran. CI is `CI=true` (GitHub Actions, GitLab CI and `.ci/run` set it),
/// or the older `STOCKTAKE_REQUIRE_TOOLS=1` (tools) and `STOCKTAKE_REQUIRE_BROWSER=1` (the browser).
package enum OutsideTools {
    private static let environment = ProcessInfo.processInfo.environment

    package static let inCI = ["true", "1"].contains(environment["CI"]?.lowercased() ?? "")

    /// A missing tool fails its test.
    package static let required = inCI || environment["STOCKTAKE_REQUIRE_TOOLS"] == "1"

    /// A missing browser fails its test.
    package static let browserRequired = inCI || environment["STOCKTAKE_REQUIRE_BROWSER"] == "1"

    /// How a skip message ends: what turns it into a failure.
    package static let requirementHint = "CI=true or STOCKTAKE_REQUIRE_TOOLS=1 turns this skip into a failure"

    /// Whether `command` (a name looked up on `PATH`, or an absolute path) can be run.
    package static func has(_ command: String) -> Bool {
        if command.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: command) }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
    }
}
