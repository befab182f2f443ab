import Foundation

/// A synthetic device backup in the real format, written by `Tests/Scripts/make_device_backup.py` (python3 with
/// sqlite3 and plistlib) from a spec; the script's summary (per domain: files, bytes, directories) is the truth
/// tests compare against. The backup lives in a `TemporaryTree` that removes itself.
package final class DeviceBackupFixture {
    package static let script = Repository.path("Tests/Scripts/make_device_backup.py")

    /// What the generator wrote for one domain.
    package struct DomainTruth: Decodable, Equatable, Sendable {
        package let files: Int
        package let bytes: Int64
        package let directories: Int
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package let tree: TemporaryTree
    /// The backup folder.
    package let path: String
    /// Per domain, from the generator.
    package let truth: [String: DomainTruth]

    /// `spec` as the script documents it: `records`, `realworld`, `applications`, `encrypted`, `wal`, ….
    package init(_ spec: [String: Any], label: String = "backup") throws {
        tree = try TemporaryTree(label)
        path = tree.path("backup")
        let specPath = tree.path("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        let result = try StocktakeProcess.runCommand(["python3", Self.script, path, specPath])
        guard result.status == 0 else { throw Failure(description: "make_device_backup.py failed: \(result.stderr)") }
        truth = try JSONDecoder().decode([String: DomainTruth].self, from: Data(result.stdout.utf8))
        try FileManager.default.removeItem(atPath: specPath)
    }

    /// The spec's `realworld` entry: the AppDomain records of `apps` (bundle ids; nil: every app) from the real
    /// iOS 14.3 backup's listing in the real-world corpus (`RealCorpus`), which is outside the repository.
    package static func realApps(_ apps: [String]?) throws -> [String: Any] {
        ["listing": try RealCorpus.path("ios14-device-backup.tsv.gz"), "apps": apps.map { $0 as Any } ?? "all"]
    }

    /// A record of the spec: `type` f, d or l; `protectionClass` the MBFile's (3, the default class, unless given).
    package static func record(
        _ domain: String, _ path: String, type: String = "f", size: Int? = nil, content: String? = nil,
        target: String? = nil,
        protectionClass: Int? = nil
    ) -> [String: Any] {
        var record: [String: Any] = ["domain": domain, "path": path, "type": type]
        if let protectionClass { record["protectionClass"] = protectionClass }
        if let size { record["size"] = size }
        if let content { record["content"] = content }
        if let target { record["target"] = target }
        return record
    }
}
