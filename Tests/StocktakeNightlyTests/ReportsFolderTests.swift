import Foundation
import TestSupport
import Testing

@testable import StocktakeNightly

/// The reports folder's layout rules and the nightly lock, without running an audit: run ids in time order,
/// names never reused, retention that spares `latest`, leftovers of killed runs removed, one run at a time.
@Suite struct ReportsFolderTests {
    @Test func runIDsSortInTimeOrderAndIgnoreEverythingElse() throws {
        let tree = try TemporaryTree("reports")
        let folder = ReportsFolder(path: tree.root)
        for run in ["2026-11-21T020000Z-10", "2026-11-21T020000Z-9", "2026-11-21T020000Z", "2026-11-20T235959Z"] {
            try tree.mkdir("app/\(run)")
        }
        try tree.write("app/2026-11-19T020000Z", string: "a file named like a run")
        try tree.symlink("app/2026-11-18T020000Z", to: "2026-11-20T235959Z")
        for other in [
            "notes", "2026-11-21T020000Z-1", "2026-11-21T020000Z-0", "2026-11-21T020000Z-x", "2026-11-21T02000Z",
        ] {
            try tree.mkdir("app/\(other)")
        }
        #expect(
            folder.runIDs("app") == [
                "2026-11-20T235959Z", "2026-11-21T020000Z", "2026-11-21T020000Z-9", "2026-11-21T020000Z-10",
            ])
        #expect(folder.runIDs("no-such-app").isEmpty)
    }

    @Test func aRunNameIsNeverReusedAfterRetentionFreesIt() throws {
        let tree = try TemporaryTree("reports")
        let folder = ReportsFolder(path: tree.root)
        let runID = "2026-11-21T020000Z"
        #expect(folder.nextRunName("app", runID: runID) == runID)
        try tree.mkdir("app/\(runID)")
        try tree.mkdir("app/\(runID)-3")
        #expect(
            folder.nextRunName("app", runID: runID) == "\(runID)-4", "past the highest taken, not the first free (-2)")
        try tree.write("app/\(runID)-4", string: "something else holds the name")
        #expect(folder.nextRunName("app", runID: runID) == "\(runID)-5")
    }

    @Test func retentionKeepsTheNewestAndNeverTheRunLatestPointsAt() throws {
        let tree = try TemporaryTree("reports")
        let folder = ReportsFolder(path: tree.root)
        let runs = (1...5).map { "2026-11-0\($0)T020000Z" }
        for run in runs { try tree.mkdir("app/\(run)") }
        try folder.pointLatest("app", at: runs[0])
        #expect(folder.latestRunID("app") == runs[0])
        #expect(folder.prune("app", keep: 3).isEmpty)
        #expect(folder.runIDs("app") == [runs[0], runs[3], runs[4]], "the oldest go, but not the one latest names")
        try folder.pointLatest("app", at: runs[4])
        #expect(folder.prune("app", keep: 1).isEmpty)
        #expect(folder.runIDs("app") == [runs[4]])
    }

    @Test func latestIsOnlyTrustedWhenItNamesAnExistingRun() throws {
        let tree = try TemporaryTree("reports")
        let folder = ReportsFolder(path: tree.root)
        try tree.mkdir("app/2026-11-21T020000Z")
        try tree.symlink("app/latest", to: "2026-11-21T020000Z")
        #expect(folder.latestRunID("app") == "2026-11-21T020000Z")
        for target in ["../elsewhere", "/etc", ".partial-x", "2026-11-22T020000Z"] {
            try? FileManager.default.removeItem(atPath: tree.path("app/latest"))
            try tree.symlink("app/latest", to: target)
            #expect(folder.latestRunID("app") == nil, "latest → \(target)")
        }
    }

    @Test func publishingMovesAPartialRunIntoPlaceAndLeftoversAreRemoved() throws {
        let tree = try TemporaryTree("reports")
        let folder = ReportsFolder(path: tree.root)
        let partial = try folder.makePartial(runID: "2026-11-21T020000Z", index: 0)
        try tree.write(String(partial.dropFirst(tree.root.count + 1)) + "/report.json", string: "{}")
        #expect(
            URL(fileURLWithPath: partial).lastPathComponent.hasPrefix(ReportsFolder.partialPrefix),
            "a run is written where no reader looks")
        try folder.publish(partial, app: "app", name: "2026-11-21T020000Z")
        #expect(folder.runIDs("app") == ["2026-11-21T020000Z"])
        #expect(FileManager.default.fileExists(atPath: tree.path("app/2026-11-21T020000Z/report.json")))

        // What a killed run leaves: an unfinished folder and the link it meant to rename over latest.
        let killed = try folder.makePartial(runID: "2026-11-22T020000Z", index: 1)
        try tree.write(String(killed.dropFirst(tree.root.count + 1)) + "/report.json", string: "{")
        try tree.symlink("app/.latest-99999", to: "2026-11-21T020000Z")
        #expect(folder.removePartials().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: tree.path("app/.latest-99999"))) == nil)
        #expect(folder.runIDs("app") == ["2026-11-21T020000Z"], "complete runs stay")
    }

    @Test func oneRunAtATimeAndTheLockGoesWithItsHolder() throws {
        let tree = try TemporaryTree("reports")
        // flock belongs to the open file, so a second open in this process contends exactly as another process would.
        do {  // the holder lives to the end of this block, and no further
            let holder = try NightlyLock(reportsPath: tree.root)
            withExtendedLifetime(holder) {
                do throws(NightlyError) {
                    _ = try NightlyLock(reportsPath: tree.root)
                    Issue.record("a second lock on the same reports folder was granted")
                } catch .busy(let message) {
                    #expect(message.contains("pid \(getpid())"), "names the holder: \(message)")
                } catch {
                    Issue.record("expected busy, got \(error)")
                }
            }
        }
        #expect(throws: Never.self, "released with its holder") { _ = try NightlyLock(reportsPath: tree.root) }
    }

    @Test func aLockFileThatIsALinkIsRefused() throws {
        let tree = try TemporaryTree("reports")
        try tree.write("target", string: "")
        try tree.symlink(NightlyLock.fileName, to: tree.path("target"))
        do {
            _ = try NightlyLock(reportsPath: tree.root)
            Issue.record("the lock followed a symbolic link")
        } catch .unusable(let message) {
            #expect(message.contains(NightlyLock.fileName))
        } catch {
            Issue.record("expected unusable, got \(error)")
        }
    }
}
