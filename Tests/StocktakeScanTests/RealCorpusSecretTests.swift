import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakeScan

/// Precision and recall of the content checks on real files no one here wrote (plists, cookie jars, URL caches
/// from real apps), each classed by hand in the corpus's `truth.json`. The corpus is not in the repository: the
/// folder `STOCKTAKE_CORPUS` names holds `samples/content/` (`RealCorpus`). Without it the test skips, and fails
/// under CI. Each source container is copied alone into a temporary folder and read by the ContentInspector.
@Suite struct RealCorpusSecretTests {

    struct Truth {
        let path: String
        let classification: String
        /// For a secret file: each secret's cookie or key names (one of them found counts the secret found).
        let secrets: [[String]]
        let lookalikes: [String]
    }

    static func truth(at root: String) throws -> [Truth] {
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/samples/content/truth.json"))
        let files = try #require(
            (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] as? [String: [String: Any]])
        return files.keys.sorted().map { path in
            let file = files[path]!
            let secrets = (file["secrets"] as? [[String: Any]] ?? []).map { names(in: $0["place"] as? String ?? "") }
            let lookalikes = (file["lookalikes"] as? [[String: Any]] ?? []).compactMap { $0["place"] as? String }
            return Truth(
                path: path, classification: file["class"] as? String ?? "", secrets: secrets, lookalikes: lookalikes)
        }
    }

    /// `cookies SID, __Secure-1PSID (domains …)` → SID, __Secure-1PSID; `cookies A + B (.x)` → A, B.
    static func names(in place: String) -> [String] {
        var text = Substring(place)
        for prefix in ["cookies ", "cookie "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
        if let open = text.range(of: " (") { text = text[..<open.lowerBound] }
        return text.replacingOccurrences(of: " + ", with: ", ").components(separatedBy: ", ")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether a finding's place names the cookie or key `name` (`__Secure-*PAPISID`: `*` stands for any text).
    static func place(_ place: String, names name: String) -> Bool {
        let found: Substring
        if place.hasPrefix("cookie "), let end = place.range(of: " for ") {
            found = place.dropFirst("cookie ".count)[..<end.lowerBound]
        } else if place.hasPrefix("key ") {
            found = place.dropFirst("key ".count)
        } else {
            return false
        }
        let parts = name.split(separator: "*", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return found == name }
        return found.hasPrefix(parts[0]) && found.hasSuffix(parts[1]) && found.count >= name.count - 1
    }

    /// What the inspector reports, per file of the corpus (path under `samples/content/`).
    static func inspect(_ root: String) throws -> [String: [SensitiveItem]] {
        let content = root + "/samples/content"
        let containers = try FileManager.default.contentsOfDirectory(atPath: content).filter {
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: content + "/" + $0, isDirectory: &folder) && folder.boolValue
        }
        var found: [String: [SensitiveItem]] = [:]
        for container in containers.sorted() {
            let tree = try TemporaryTree("corpus")
            // An Xcode export keeps the container under AppData/.
            let source =
                FileManager.default.fileExists(atPath: "\(content)/\(container)/AppData")
                ? "\(content)/\(container)/AppData" : "\(content)/\(container)"
            let copy = tree.path("container")
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            let inventory = try InventoryScanner.scan(root: copy)
            for item in ContentInspector(root: copy, inventory: inventory).run().items {
                let relative = String(decoding: inventory.path(item.entry), as: UTF8.self)
                let prefix = source.hasSuffix("/AppData") ? "\(container)/AppData/" : "\(container)/"
                found[prefix + relative, default: []].append(item)
            }
        }
        return found
    }

    @Test(.enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func everyLookalikeStaysQuietAndEverySecretIsFound() throws {
        let root = try RealCorpus.folder(holding: "samples/content/truth.json")
        let truth = try Self.truth(at: root)
        let found = try Self.inspect(root)
        var secretFiles = 0
        var secretFilesFound = 0
        var secrets = 0
        var secretsFound = 0
        var quietFiles = 0
        var quiet = 0
        var falseItems = 0
        for file in truth {
            let items = found[file.path] ?? []
            let placesFound = items.map(\.place)
            if file.classification == "secret" {
                secretFiles += 1
                if !items.isEmpty { secretFilesFound += 1 }
                let allowed = Set(file.secrets.flatMap { $0 })
                for secret in file.secrets {
                    secrets += 1
                    if secret.contains(where: { name in placesFound.contains { Self.place($0, names: name) } }) {
                        secretsFound += 1
                    } else {
                        Issue.record("\(file.path): no finding for \(secret)")
                    }
                }
                // Nothing else in a secret file: the look-alikes beside the secrets stay quiet too.
                for place in placesFound where !allowed.contains(where: { Self.place(place, names: $0) }) {
                    falseItems += 1
                    Issue.record("\(file.path): \(place) is not one of its secrets")
                }
            } else {
                quietFiles += 1
                if items.isEmpty {
                    quiet += 1
                } else {
                    falseItems += items.count
                    Issue.record("\(file.path) (\(file.classification)): \(placesFound)")
                }
            }
        }
        print(
            """
            real-file corpus: secret files found \(secretFilesFound)/\(secretFiles), secrets found \(secretsFound)/\(secrets), \
            look-alike and plain files quiet \(quiet)/\(quietFiles), false items \(falseItems)
            """)
        #expect(secretFiles > 0 && quietFiles > 0)
    }
}
