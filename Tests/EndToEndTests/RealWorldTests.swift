import Foundation
import StocktakeModel
import TestSupport
import Testing

/// Every real container layout of the real-world corpus (an iOS 15 phone's containers, an iOS 14 device backup's
/// app domains; Tests/README.md), rebuilt as folders by the corpus's own script and audited by the real binary.
/// The corpus is outside the repository: without `STOCKTAKE_CORPUS` these tests skip, under CI they fail.
@Suite("Real container layouts")
struct RealWorldTests {
    /// Findings per rule on the real layouts: pinned, so a change in a rule's precision shows in review. The
    /// precision table in docs/policy.md says why each is a real problem (a test keeps it equal to this).
    static let pinnedFindings: [String: Int] = [
        "documents-hidden-data": 234,
        "library-root-file": 102,
        "redownloadable-in-backup": 99,
        "tmp-leftovers": 80,
        "sqlite-sidecar": 3,
        "many-small-files": 1,
    ]

    /// The report is read-only JSON once built, shared by the tests.
    struct Audit: @unchecked Sendable {
        let source: String
        let container: String
        /// `du -s -B1` of the container, measured while it existed.
        let du: Int64?
        let status: Int32
        let stderr: String
        let report: [String: Any]?
    }

    struct Truth: Sendable {
        let bundleIdentifier: String
        let namedInPaths: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Materialised once and audited once for every test of the suite (the folders are gone afterwards); the
    /// error, for every test, when the corpus is missing or its script fails.
    static let materialised = Result { try materialiseAndAudit() }
    static func audits() throws -> [Audit] { try materialised.get() }

    static func materialiseAndAudit() throws -> [Audit] {
        let script = try RealCorpus.path("materialise.py")
        let tree = try TemporaryTree("realworld")
        let built = try StocktakeProcess.runCommand(["python3", script, tree.path("in")])
        guard built.status == 0 else { throw Failure(description: "materialise.py failed: \(built.stderr)") }
        var found: [(String, String)] = []
        for source in try FileManager.default.contentsOfDirectory(atPath: tree.path("in")).sorted() {
            for container in try FileManager.default.contentsOfDirectory(atPath: tree.path("in/" + source)).sorted() {
                found.append((source, container))
            }
        }
        let jobs = found
        let base = tree.root
        let lock = NSLock()
        nonisolated(unsafe) var results = [Audit?](repeating: nil, count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let (source, container) = jobs[index]
            let folder = "\(base)/in/\(source)/\(container)"
            let output = "\(base)/out/\(source)/\(container)"
            let run = try! StocktakeProcess.run(["audit", folder, "--output", output, "--quiet", "--fail-on", "never"])
            let data = try? Data(contentsOf: URL(fileURLWithPath: output + "/report.json"))
            let report = data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            let du = try? DiskUsage.bytes(folder)
            let audit = Audit(
                source: source, container: container, du: du, status: run.status, stderr: run.stderr, report: report)
            lock.withLock { results[index] = audit }
        }
        return results.compactMap { $0 }
    }

    /// The corpus's truth.tsv: per source/container, the certain bundle id and whether any path names it.
    static func truth() throws -> [String: Truth] {
        let text = try String(contentsOfFile: try RealCorpus.path("truth.tsv"), encoding: .utf8)
        var truth: [String: Truth] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            truth[fields[0] + "/" + fields[1]] = Truth(bundleIdentifier: fields[2], namedInPaths: fields[4] == "yes")
        }
        return truth
    }

    private static func container(_ audit: Audit) -> [String: Any] {
        audit.report?["container"] as? [String: Any] ?? [:]
    }
    private static func findings(_ audit: Audit) -> [[String: Any]] {
        audit.report?["findings"] as? [[String: Any]] ?? []
    }

    @Test(
        "every container is audited, and its total on disk equals du", .enabled(if: RealCorpus.enabled, RealCorpus.hint)
    )
    func everyAuditFinishesWithDuTotals() throws {
        let audits = try Self.audits()
        #expect(audits.count == 286)
        for audit in audits {
            #expect(audit.status == 0, "\(audit.source)/\(audit.container): \(audit.stderr)")
            let totals = try #require(audit.report?["totals"] as? [String: Any])
            let onDisk = try #require(totals["onDisk"] as? [String: Any])
            let allocated = try #require(onDisk["allocatedBytes"] as? Int)
            #expect(Int64(allocated) == audit.du, "\(audit.container)")
        }
    }

    @Test(
        "no wrong bundle id, and an id for at least 95% of the containers whose paths show their app",
        .enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func bundleIdentifiers() throws {
        let truths = try Self.truth()
        var named = 0
        var showing = 0
        for audit in try Self.audits() {
            let reported = Self.container(audit)["bundleIdentifier"] as? String
            guard let truth = truths[audit.source + "/" + audit.container] else { continue }
            if let reported { #expect(reported == truth.bundleIdentifier, "\(audit.source)/\(audit.container)") }
            if truth.namedInPaths {
                showing += 1
                if reported == truth.bundleIdentifier { named += 1 }
            }
        }
        #expect(showing == 122)
        #expect(Double(named) >= 0.95 * Double(showing), "named \(named) of \(showing)")
    }

    @Test("a device's container is never labelled simulator", .enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func noDeviceContainerIsASimulator() throws {
        let layouts = Set(try Self.audits().map { Self.container($0)["layout"] as? String ?? "?" })
        #expect(layouts == ["dataContainer", "bare"])
    }

    @Test("findings per rule are pinned", .enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func findingsPerRule() throws {
        var counts: [String: Int] = [:]
        for audit in try Self.audits() {
            for finding in Self.findings(audit) { counts[finding["rule"] as? String ?? "?", default: 0] += 1 }
        }
        #expect(counts == Self.pinnedFindings)
    }

    @Test(
        "no rule reports what iOS made: WebKit's links, UUID records deep in caches, Library folders iOS makes",
        .enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func rulesLeaveWhatIOSMadeAlone() throws {
        for audit in try Self.audits() {
            for finding in Self.findings(audit) {
                let path = finding["path"] as? String ?? ""
                let components = path.split(separator: "/").map(String.init)
                switch finding["rule"] as? String {
                case "symlink-escape":
                    #expect(!path.hasPrefix("Library/WebKit/"), "\(path)")
                case "interrupted-deletion":
                    let topOfTmp = components.count == 2 && components[0] == "tmp"
                    let topOfCaches = components.count == 3 && components[0] == "Library" && components[1] == "Caches"
                    #expect(topOfTmp || topOfCaches, "\(path)")
                case "library-root-file":
                    #expect(
                        !SystemCatalogue.isSystemLibraryFolder(Array((components.dropFirst().first ?? "").utf8)[...]),
                        "\(path)")
                default:
                    break
                }
            }
        }
    }

    @Test(
        "nothing a real device backup holds is predicted excluded from backup",
        .enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func backupHoldsNothingPredictedExcluded() throws {
        for audit in try Self.audits() where audit.source == "ios14-device-backup" {
            for file in audit.report?["files"] as? [[String: Any]] ?? [] {
                let state = file["backup"] as? String ?? "?"
                #expect(state == "included" || state == "unknown", "\(audit.container)/\(file["path"] ?? "")")
            }
        }
    }

    @Test(
        "the policy document's precision table is the pinned counts, and the reports document's catalogue table is SystemCatalogue"
    )
    func documentedTablesAreTrue() throws {
        let policy = try String(contentsOfFile: Repository.path("docs/policy.md"), encoding: .utf8)
        for (rule, count) in Self.pinnedFindings {
            #expect(policy.contains("| `\(rule)` | \(count) |"), "docs/policy.md precision row of \(rule)")
        }
        let reports = try String(contentsOfFile: Repository.path("docs/reports.md"), encoding: .utf8)
        for item in SystemCatalogue.items {
            #expect(
                reports.contains("| `\(item.pattern)` | \(item.backup.rawValue) |"),
                "docs/reports.md catalogue row of \(item.pattern)")
        }
    }
}
