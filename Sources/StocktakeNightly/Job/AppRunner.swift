import Foundation
import StocktakeAudit
import StocktakeDiff
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

/// One inbox entry through the nightly steps, written into a partial folder made visible once its reports exist.
struct AppRunner {
    let request: NightlyRequest
    let folder: ReportsFolder
    let history: (any RunHistory)?
    let runID: String

    /// The finished run and the problems that did not stop it (no diff, history, retention). `runInput` is kept in
    /// the run folder so that a run published but never recorded as audited is recorded the next night.
    func run(input: String, audit: AuditRequest, index: Int, runInput: RunInput? = nil) throws -> (
        NightlyOutcome.AppRun, [String]
    ) {
        // REPORTS inside this container (through a link or not): auditing it would write into it.
        if audit.simulator == nil, ResolvedPath.isInside(request.reportsPath, audit.inputPath) {
            throw AuditError.output(
                "refusing to audit it: the reports folder \(request.reportsPath) is inside it (at \(ResolvedPath.of(request.reportsPath))); keep REPORTS out of the inbox's containers"
            )
        }
        let partial = try folder.makePartial(runID: runID, index: index)
        var problems: [String] = []
        let started = ContinuousClock.now
        // A run that fails before it is published leaves no partial folder behind.
        var published = false
        defer { if !published { try? FileManager.default.removeItem(atPath: partial) } }
        var audit = audit
        audit.outputDirectory = partial
        audit.formats = NightlyJob.formats
        audit.configuration = request.configuration
        audit.policy = request.policy
        audit.tool = request.tool
        audit.now = request.now
        audit.gates = request.gates
        let result = try Audit.run(audit)
        let duration = (ContinuousClock.now - started).inSeconds
        // The file, not `result.report`, makes the diff and the history row: they then hold what was published,
        // read by the one reader `stocktake diff` and the recovery use.
        let snapshot = try ReportReader.read(path: Paths.join(partial, "report.json"))
        let app = ReportPaths.appFolderName(result.report.container.bundleIdentifier)
        let name = folder.nextRunName(app, runID: runID)
        // Named by where it will be (relative to REPORTS), not by the partial folder it is read from.
        let named = snapshot.named(Paths.join(app, name))
        if let problem = try writeDiff(against: app, new: named, into: partial) { problems.append(problem) }
        try runInput?.write(into: partial)
        try folder.publish(partial, app: app, name: name)
        published = true
        let verdict = ReportVerdict(report: result.report, gates: request.gates)
        let failed = verdict.failed == true
        let runFolder = Paths.join(folder.appFolder(app), name)
        let recorded = HistoryRun(
            bundleIdentifier: app, runID: name, snapshot: snapshot, status: failed ? .policyFailure : .clean,
            source: request.source, recordedBy: request.recordedBy, reportLocation: ResolvedPath.of(runFolder),
            durationSeconds: duration)
        do {
            try history?.recordChecked(recorded)
        } catch {
            problems.append("\(app) \(name): not recorded in the history store: \(error)")
        }
        do {
            try folder.pointLatest(app, at: name)
        } catch {
            problems.append("\(app): \(error.localizedDescription)")
        }
        // Even when `latest` could not be replaced (a real folder of that name): retention goes on.
        problems += folder.prune(app, keep: request.keep)
        let run = NightlyOutcome.AppRun(
            input: input, bundleIdentifier: app, runFolder: runFolder, policyFailure: failed,
            summary: summary(result.report, verdict), recorded: recorded)
        return (run, problems)
    }

    /// Diffs the new report against the app's previous run; a previous report that does not read is a problem.
    private func writeDiff(against app: String, new: ReportSnapshot, into partial: String) throws -> String? {
        guard let previous = folder.latestRunID(app) ?? folder.runIDs(app).last else { return nil }
        let old: ReportSnapshot
        do {
            old = try ReportReader.read(path: Paths.join(folder.appFolder(app), previous)).named(
                Paths.join(app, previous))
        } catch {
            return "\(app): no diff against the previous run: \(error)"
        }
        let diff = ReportDiff.compute(old: old, new: new)
        for (format, fileName) in NightlyJob.diffFiles {
            try AtomicFile.write(
                try DiffWriter.render(diff, gates: [], format: format, options: DiffRenderOptions(tool: request.tool)),
                to: Paths.join(partial, fileName))
        }
        return nil
    }

    private func summary(_ report: Report, _ verdict: ReportVerdict) -> String {
        let counts = report.findings.severityCounts()
        let exceeded = report.budgets.filter(\.exceeded).map(\.scope)
        let findings = counts.isEmpty ? "no findings" : counts.joined(separator: ", ")
        let coverage = verdict.failures.first { $0.gate == request.gates.contentCoverage }.map { "; \($0.reason)" }
        return (exceeded.isEmpty ? findings : "\(findings); budget exceeded: \(exceeded.joined(separator: ", "))")
            + (coverage ?? "")
    }
}
