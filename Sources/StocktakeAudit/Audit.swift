import Foundation
import StocktakeBackup
import StocktakeContent
import StocktakeFiles
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport
import StocktakeScan

/// The audit use case: identify the container, read the companions, prepare the output folder, walk, hold the
/// inventory to the policy, write every report. Never prints and never exits: the CLI does that.
package enum Audit {
    package static func run(_ request: AuditRequest) throws(AuditError) -> AuditResult {
        let request = try request.resolvingSimulator()
        let timings = request.scan.timings
        let input = try timings.measure("identify") { () throws(AuditError) in try AuditInput.open(request) }
        let container = input.container
        // With --backup, the backup's records decide every file's state once the tree is walked.
        let backupEvidence = try BackupAudit.evidence(request, app: container.bundleIdentifier)
        // Before any walk (companions included): a bad --output should fail in a second, not after scanning.
        let folder = try OutputFolder.prepare(request: request, container: container)
        // Whatever fails from here on leaves no empty output folder behind.
        var succeeded = false
        defer { if !succeeded { OutputFolder.removeIfEmpty(folder) } }
        var appBundle: AppBundleInfo?
        var bundleProblem: ScanIssue?
        var appGroups: [AppGroupInfo] = []
        var companions: [CompanionContainer] = []
        if let path = request.appBundlePath {
            (appBundle, bundleProblem) = try Companions.appBundle(at: path, options: request.scan)
        }
        for path in request.appGroupPaths {
            let (info, walked) = try Companions.appGroup(
                at: path, matchedBy: request.companionRules[path], identifier: request.companionIdentifiers[path],
                options: request.scan)
            appGroups.append(info)
            companions.append(walked)
        }
        appGroups += input.companions
        var inventory: Inventory
        let checksContent = request.configuration.contentChecks && request.contentChecks
        // The walk reads the text files for the content pass while it has their folders open.
        let textScan = checksContent ? WalkTextScan() : nil
        do {
            inventory = try input.inventory(request.scan.with(textScan: textScan))
        } catch {
            throw .input(error)
        }
        var deviceBackup = input.deviceBackup ?? backupEvidence?.1
        let applied = backupEvidence.map { overlay, _, issues in overlay.apply(to: inventory, issues: issues) }
        if let applied, let summary = backupEvidence?.1 {
            inventory = applied.inventory
            deviceBackup = summary.with(notInExport: applied.notInExport)
        }
        // The content pass and duplicate detection read file contents on their own threads while the rows are written.
        let scope = ContentScope(unprotected: applied?.unprotected ?? [], companions: companions)
        let walked = inventory
        let content =
            checksContent
            ? BackgroundTask {
                timings.measure("content") {
                    scope.contentPass(
                        input: input, inventory: walked, threads: request.scan.threads, walkScan: textScan)
                }
            } : nil
        let duplicates = BackgroundTask { findDuplicates(in: walked, input: input, request: request) }
        let rows = prepare(
            request, input: input, inventory: inventory, appBundle: appBundle, appGroups: appGroups,
            deviceBackup: deviceBackup,
            issues: (bundleProblem.map { [$0] } ?? [])
                + request.simulatorNotes.map { note in
                    // A link in the device set, not followed: what it would have added is not in the report.
                    ScanIssue(path: Array(note.path.utf8), reason: .unreadable, detail: note.message)
                })
        // The rules run on a second thread, then the HTML; report.json's rows are written meanwhile unless a baseline
        // (whose key sorts before the rows) makes the JSON wait for the judged report like every other format.
        let judged = BackgroundTask { () -> Judged in
            let draft = rows.with(contentCoverage: content?.value.coverage)
            let report = Result { () throws(AuditError) in
                Report(
                    draft,
                    try judge(draft, request: request, content: content?.value, duplicates: duplicates.value))
            }
            let html =
                request.formats.contains(.html)
                ? (try? report.get()).map { report in
                    timings.measure("render html") {
                        Array(HTMLReportWriter(gates: request.gates).render(report).utf8)
                    }
                } : nil
            return Judged(report: report, html: html)
        }
        let streamsRows = request.baseline == nil && request.writeBaselinePath == nil
        let (written, standardOutput) = try write(
            rows, content: content, judged: judged, streamsRows: streamsRows, formats: request.formats, into: folder,
            repositoryFile: repositoryFile(request, containerRoot: input.container.rootPath), timings: timings)
        let report = try judged.value.report.get()
        succeeded = true
        return AuditResult(
            report: report, outputDirectory: folder, writtenFiles: written, standardOutput: standardOutput)
    }

    /// Removes the private copies of an audit under way (an archive's can reach gigabytes), for a signal's handler.
    package static func removeScratchCopies() { ScratchFolder.removeAll() }

    /// Maps a container path to the repository's path of the same file, when the container's root lies inside the
    /// repository and the file is there (an export committed to it).
    private static func repositoryFile(_ request: AuditRequest, containerRoot: String) -> @Sendable (String) -> String?
    {
        guard let root = request.repositoryRoot, request.simulator == nil, request.backupApp == nil,
            !containerRoot.isEmpty
        else { return { _ in nil } }
        let base = ResolvedPath.of(root)
        let input = ResolvedPath.of(containerRoot)
        guard input == base || input.hasPrefix(base == "/" ? "/" : base + "/") else { return { _ in nil } }
        let prefix = String(input.dropFirst(base.count)).drop { $0 == "/" }
        return { path in
            let file = prefix.isEmpty ? path : Paths.join(String(prefix), path)
            return FileManager.default.fileExists(atPath: Paths.join(base, file)) ? file : nil
        }
    }

    /// The report without what the rules decide and without the content coverage.
    private static func prepare(
        _ request: AuditRequest, input: AuditInput, inventory: Inventory, appBundle: AppBundleInfo?,
        appGroups: [AppGroupInfo], deviceBackup: DeviceBackupSummary?, issues: [ScanIssue]
    ) -> ReportDraft {
        let groups = request.configuration.groups.map { GroupResult.compute($0, in: inventory) }
        return ReportDraft(
            tool: request.tool, generatedAt: request.now, container: input.container, inventory: inventory,
            appBundle: appBundle, appGroups: appGroups, groups: groups,
            budgets: request.configuration.budgets.check(inventory, groups: groups), companionIssues: issues,
            deviceBackup: deviceBackup)
    }

    /// Holds the inventory to the policy: duplicates, findings, the baseline (written and applied).
    private static func judge(
        _ draft: ReportDraft, request: AuditRequest, content: ContentScope.Result?,
        duplicates: (sets: [DuplicateSet], unread: [ScanIssue])
    ) throws(AuditError) -> Judgement {
        // A bundle whose Info.plist does not read leaves it unknown.
        let exposed =
            request.configuration.documentsVisible
            ?? draft.appBundle.flatMap { $0.infoPlist == nil ? nil : $0.fileSharingEnabled || $0.opensDocumentsInPlace }
        let context = PolicyContext(
            inventory: draft.inventory, documentsExposed: exposed, duplicates: duplicates.sets,
            budgets: request.configuration.budgets, groups: draft.groups, exportedAt: draft.container.exportedAt,
            sensitive: content?.own ?? [], companionSensitive: content?.companions ?? [],
            appBundleSecrets: draft.appBundle?.secrets ?? [])
        let findings = request.scan.timings.measure("rules") { request.policy.evaluate(context) }
        if let path = request.writeBaselinePath {
            do {
                AtomicFile.removeLeftovers(of: path)
                try AtomicFile.write(Array(Baseline(findings: findings).json.utf8), to: path)
            } catch {
                throw .output((error as? OutputError)?.description ?? "cannot write the baseline \(path): \(error)")
            }
        }
        let applied = request.baseline.map { $0.apply(to: findings) }
        return Judgement(
            findings: applied?.kept ?? findings,
            baseline: applied.map { BaselineSummary(suppressed: $0.suppressed.count, stale: $0.stale) },
            issues: duplicates.unread + (content?.issues ?? []))
    }

    /// Writes each file format atomically (all or none); stdout's formats come back as bytes. With `streamsRows`,
    /// report.json starts from `rows`, before the rules; everything else waits for the judged report.
    private static func write(
        _ rows: ReportDraft, content: BackgroundTask<ContentScope.Result>?, judged: BackgroundTask<Judged>,
        streamsRows: Bool, formats: [ReportFormat], into folder: String,
        repositoryFile: @escaping @Sendable (String) -> String?, timings: PhaseTimings?
    ) throws(AuditError) -> (written: [String], standardOutput: [UInt8]) {
        var written: [String] = []
        var standardOutput: [UInt8] = []
        do {
            for format in formats {
                // Called only where needed: report.json must not wait for the rules before its rows.
                func final() throws(AuditError) -> Report { try judged.value.report.get() }
                guard case .file(let name) = format.destination else {
                    try timings.measure("write \(format.rawValue)") {
                        let report = try final()
                        if format == .github {
                            let writer = GitHubAnnotationsWriter(repositoryFile: repositoryFile)
                            standardOutput.append(contentsOf: Array(writer.render(report).utf8))
                        } else {
                            try format.render(report) { standardOutput.append(contentsOf: $0) }
                        }
                    }
                    continue
                }
                let path = Paths.join(folder, name)
                try timings.measure("write \(format.rawValue)") {
                    try AtomicFile.write(to: path) { write in
                        switch format {
                        case .json where streamsRows:
                            // Inside "write json": how long its rows were done before the rules.
                            try JSONReportWriter().write(
                                rows,
                                coverage: content.map { pass in
                                    (isReady: { pass.isDone }, value: { pass.value.coverage })
                                },
                                judgedBy: {
                                    try timings.measure("wait for rules") { judged.value.report }.get().judgement
                                }, to: write)
                        case .html: try write(judged.value.html ?? Array(HTMLReportWriter().render(final()).utf8))
                        default: try format.render(final(), alongside: formats, write)
                        }
                    }
                }
                written.append(path)
            }
        } catch {
            _ = judged.value
            for path in written { unlink(path) }
            if let error = error as? AuditError { throw error }
            throw .output((error as? OutputError)?.description ?? "cannot write reports into \(folder): \(error)")
        }
        return (written, standardOutput)
    }

    /// Duplicate sets, and the files that could not be read, when the policy runs `duplicate-content` (it reads file
    /// contents, so only then) on an input with a tree to compare. Timed only when it runs.
    private static func findDuplicates(in inventory: Inventory, input: AuditInput, request: AuditRequest) -> (
        sets: [DuplicateSet], unread: [ScanIssue]
    ) {
        guard let minimumBytes = request.policy.duplicateMinimumBytes, input.comparesContents else { return ([], []) }
        return request.scan.timings.measure("duplicates") {
            do {
                guard
                    let search = try input.duplicates(
                        in: inventory, minimumBytes: minimumBytes, threads: request.scan.threads)
                else { return ([], []) }
                return (search.sets.map { DuplicateSet(members: $0.members, size: $0.size) }, search.issues)
            } catch {
                return ([], [ScanIssue(path: [], reason: .unreadable, detail: "duplicate detection skipped: \(error)")])
            }
        }
    }
}

/// The judged report (or why it could not be judged) and, when the run writes HTML, its page.
private struct Judged: Sendable {
    let report: Result<Report, AuditError>
    let html: [UInt8]?
}

extension ReportDraft {
    fileprivate func with(contentCoverage: ContentCoverage?) -> ReportDraft {
        ReportDraft(
            tool: tool, generatedAt: generatedAt, container: container, inventory: inventory, appBundle: appBundle,
            appGroups: appGroups, groups: groups, budgets: budgets, companionIssues: companionIssues,
            deviceBackup: deviceBackup, contentCoverage: contentCoverage)
    }
}
