import Foundation
import StocktakeAudit
import StocktakeDiff
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

/// The nightly batch, under a lock: each inbox entry audited, diffed, recorded and pruned; a broken one fails alone.
package enum NightlyJob {
    static let formats: [ReportFormat] = [.json, .html, .sarif, .junit, .markdown]
    static let diffFiles: [(DiffFormat, String)] = [(.json, "diff.json"), (.html, "diff.html"), (.markdown, "diff.md")]

    package static func run(_ request: NightlyRequest) throws(NightlyError) -> NightlyOutcome {
        do {
            try FileManager.default.createDirectory(atPath: request.reportsPath, withIntermediateDirectories: true)
        } catch {
            throw .unusable("cannot create the reports folder \(request.reportsPath): \(FileSystemReason.of(error))")
        }
        // Checked once the folder exists: a path inside it is judged by where it really is.
        if let metricsFile = request.metricsFile {
            let kept: [(path: String, what: String)] =
                [(request.reportsPath, "the reports folder")] + (request.inboxPath.map { [($0, "the inbox")] } ?? [])
                + (request.historyFile.map { [($0, "the history")] } ?? [])
            if let problem = MetricsFilePlace.problem(metricsFile, kept: kept) { throw .unusable(problem) }
        }
        let inbox = request.inboxPath ?? ""
        let found = try inboxEntries(request.inboxPath, reports: request.reportsPath)
        // A note or a README dropped beside the exports is not a failed audit every night: it is named and left.
        let strays = found.filter { InputKind.of(Paths.join(inbox, $0)) == .otherFile }
        let inputs = found.filter { !strays.contains($0) }
        let lock = try NightlyLock(reportsPath: request.reportsPath)
        defer { withExtendedLifetime(lock) {} }

        let folder = ReportsFolder(path: request.reportsPath)
        var problems = folder.removePartials()
        for file in ["index.html", AuditedExports.fileName] {
            AtomicFile.removeLeftovers(of: Paths.join(folder.path, file))
        }
        let started = ContinuousClock.now
        // A history that cannot be opened stops nothing: the night exits 1, and the next records the runs it missed.
        let history: (any RunHistory)?
        do {
            history =
                try request.openHistory?() ?? HistoryStore(path: HistoryStore.path(inReports: request.reportsPath))
        } catch {
            history = nil
            problems.append("\(error)")
        }
        let runID = ReportDates.folderName(request.now)
        var runs: [NightlyOutcome.AppRun] = []
        var failures: [NightlyOutcome.Failure] = []
        var skipped: [NightlyOutcome.Skipped] = []
        var audited = AuditedExports(reportsPath: request.reportsPath)
        // What a killed run or a failed history insert left unnamed, repaired before anything new is audited.
        let repair = NightlyRecovery.repair(folder: folder, history: history, audited: &audited, request: request)
        if let otherSource = repair.otherSource { throw .unusable(otherSource) }
        problems += repair.problems
        func saveAudited() {
            do {
                try audited.save(keeping: Set(inputs))
            } catch {
                problems.append(Self.problem(error, otherwise: "cannot record the audited exports in \(audited.path)"))
            }
        }
        if repair.recordChanged { saveAudited() }
        var index = 0
        // One input into its run: a failure is the input's alone.
        @discardableResult func runApp(_ label: String, _ audit: AuditRequest, runInput: RunInput? = nil)
            -> NightlyOutcome.AppRun?
        {
            defer { index += 1 }
            do {
                let runner = AppRunner(request: request, folder: folder, history: history, runID: runID)
                let (run, runProblems) = try runner.run(input: label, audit: audit, index: index, runInput: runInput)
                runs.append(run)
                problems += runProblems
                return run
            } catch {
                failures.append(NightlyOutcome.Failure(input: label, message: "\(error)"))
                return nil
            }
        }
        // Oldest export first: with two exports of one app, `latest` ends on the newest and its history stays in order.
        let policy = "\(request.tool.version) fail-on \(request.failOn?.rawValue ?? "never") \(request.policyDigest)"
        let entries = inputs.map {
            InboxEntry(name: $0, inbox: inbox, policyDigest: policy, backupApps: request.apps)
        }.sorted(by: InboxEntry.exportOrder)
        for entry in entries {
            if let fingerprint = entry.fingerprint, let run = audited.auditedRun(fingerprint) {
                skipped.append(NightlyOutcome.Skipped(input: entry.name, run: run))
                continue
            }
            // The entry counts as audited once all its runs are done; a backup's app that already has a run of this
            // very export (the night was killed, another of its apps failed) is not audited again.
            let jobs = InboxJob.jobs(entry, inbox: inbox, apps: request.apps)
            let backupApps = jobs.compactMap(\.app)
            let done = entry.fingerprint.map(repair.published.backupRuns(of:)) ?? [:]
            var lastRun: String?
            var allDone = true
            for job in jobs {
                if let app = job.app, let run = done[app] {
                    skipped.append(NightlyOutcome.Skipped(input: job.label, run: run))
                    lastRun = run
                    continue
                }
                let runInput = entry.fingerprint.map {
                    RunInput(fingerprint: $0, backupApp: job.app, backupApps: job.app == nil ? nil : backupApps)
                }
                if let run = runApp(job.label, job.audit(inbox: inbox), runInput: runInput) {
                    lastRun = Paths.join(run.bundleIdentifier, URL(fileURLWithPath: run.runFolder).lastPathComponent)
                } else {
                    allDone = false
                }
            }
            if let fingerprint = entry.fingerprint, let lastRun, allDone {
                audited.record(fingerprint, run: lastRun)
                saveAudited()
            }
        }
        // Simulator apps change under the developer all day: each is audited every night, where it is now.
        for device in request.simulators {
            for app in request.apps {
                runApp("\(app) on \(device)", AuditRequest(simulatorApp: app, on: device, deviceSet: request.deviceSet))
            }
        }
        // Exports that left the inbox are forgotten even on a night with nothing new.
        if audited.exports.keys.contains(where: { !inputs.contains($0) }) { saveAudited() }
        if let history {
            var page = IndexBuilder(
                outputPath: folder.path, history: history, showsMachines: request.usesSharedHistory,
                thisMachine: request.recordedBy)
            page.localLatest = { folder.latestRunID($0) }
            page.localSource = request.source
            do {
                try page.write(generatedAt: ReportDates.iso8601(request.now), failures: failures, skipped: skipped)
            } catch {
                problems.append(Self.problem(error, otherwise: "cannot write \(Paths.join(folder.path, "index.html"))"))
            }
        }
        // The metrics file's apps are read before the outcome: an app the history cannot give is a problem of the night.
        let latest = request.metricsFile.map { _ in
            latestRuns(folder: folder, history: history, source: request.source, tonight: runs)
        }
        problems += latest?.problems ?? []
        var outcome = NightlyOutcome(runs: runs, failures: failures, skipped: skipped, problems: problems)
        outcome.notices = strays.map { "inbox: \($0) skipped: not a container folder or an archive" }
        if let metricsFile = request.metricsFile, let latest {
            let job = RunMetrics.Job(
                name: "nightly", durationSeconds: (ContinuousClock.now - started).inSeconds,
                finishedAt: Date().timeIntervalSince1970, failures: failures.count, exitStatus: outcome.exitStatus,
                source: request.source)
            do {
                try AtomicFile.write(Array(RunMetrics(runs: latest.runs, job: job).render().utf8), to: metricsFile)
            } catch {
                outcome.problems.append(Self.problem(error, otherwise: "cannot write the metrics file \(metricsFile)"))
            }
        }
        return outcome
    }

    /// Every app's latest run, for the metrics file: from the history, else tonight's runs alone. An app the history
    /// cannot give is named: left out silently, its series would simply stop.
    private static func latestRuns(
        folder: ReportsFolder, history: (any RunHistory)?, source: String, tonight: [NightlyOutcome.AppRun]
    ) -> (runs: [HistoryRun], problems: [String]) {
        guard let history else { return (tonight.compactMap(\.recorded), []) }
        var runs: [HistoryRun] = []
        var problems: [String] = []
        for app in folder.apps() where folder.latestRunID(app) != nil {
            do {
                runs += try history.runs(of: RunSeries(bundleIdentifier: app, source: source), limit: 1).suffix(1)
            } catch {
                problems.append("\(app): left out of the metrics file: its latest run cannot be read: \(error)")
            }
        }
        return (runs.isEmpty ? tonight.compactMap(\.recorded) : runs, problems)
    }

    /// The inbox's entries by name (none without an inbox), leaving out hidden names (`.DS_Store`, `.partial` uploads),
    /// the `__MACOSX/` an unzipped Finder zip leaves (its package's audit reads it) and the reports folder itself.
    private static func inboxEntries(_ inbox: String?, reports: String) throws(NightlyError) -> [String] {
        guard let inbox else { return [] }
        var info = stat()
        var reportsInfo = stat()
        guard stat(inbox, &info) == 0 else {
            throw .unusable("cannot read the inbox \(inbox): \(SystemError.currentText)" + privacyAdvice(inbox))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .unusable("the inbox \(inbox) is not a folder") }
        let haveReports = stat(reports, &reportsInfo) == 0
        func isReports(_ name: String) -> Bool {
            var entry = stat()
            return haveReports && stat(Paths.join(inbox, name), &entry) == 0 && entry.st_dev == reportsInfo.st_dev
                && entry.st_ino == reportsInfo.st_ino
        }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: inbox).filter {
                !$0.hasPrefix(".") && $0 != "__MACOSX" && !isReports($0)
            }.sorted()
        } catch {
            throw .unusable("cannot list the inbox \(inbox): \(FileSystemReason.of(error))" + privacyAdvice(inbox))
        }
    }

    private static func privacyAdvice(_ inbox: String) -> String {
        InputKind.privacyAdvice(inbox).map { "; " + $0 } ?? ""
    }

    /// One line for a failed write: an `OutputError` already names its path; anything else gets `otherwise`.
    static func problem(_ error: any Error, otherwise: String) -> String {
        (error as? OutputError)?.description ?? "\(otherwise): \(error)"
    }
}
