import StocktakeAudit
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

/// The short text printed after an audit: what was audited, the totals, where the reports went. Paths,
/// the bundle id and messages come from the container: every line goes through `Terminal.visible`, so
/// a name can neither drive the terminal nor start a line of its own (a forged `::error` command).
struct AuditSummary {
    let result: AuditResult
    /// What the summary opens with: the verdict the exit status follows.
    let verdict: ReportVerdict

    var text: String {
        let report = result.report
        let (totals, container) = (report.inventory.totals, report.container)
        let figure = { (figure: Figure) in ByteCount.format(figure.total(in: totals).allocatedBytes) }
        let onDisk = totals.onDisk
        let estimated = container.allocatedBytesEstimated ? " (allocated sizes estimated in 4 KiB blocks)" : ""
        let transport = totals.transportArtefacts.files
        // The verdict first, as on the page: a reader who reads one line reads this one.
        var lines: [String] = [
            verdict.line, "Container:  \(container.inputPath) (\(container.layout.rawValue))",
            container.identityCandidates.isEmpty
                ? "Bundle id:  \(container.bundleIdentifier ?? "unknown") (from \(container.bundleIdentifierSource.rawValue))"
                : "Bundle id:  ambiguous, candidates \(container.identityCandidates.joined(separator: ", ")) (see the report's container section)",
            "On disk:    \(figure(.onDisk)) (\(ByteCount.format(onDisk.apparentBytes)) apparent), \(Self.count(onDisk.files, "entry"))\(estimated)",
            "App data:   \(figure(.appData)) in \(Self.count(totals.appData.files, "file")); besides, "
                + Self.count(totals.directories.files, "folder")
                + (transport > 0
                    ? " and \(Self.count(transport, "transport artefact")) (\(figure(.transportArtefacts)))" : ""),
            "",
        ]
        lines += Location.allCases.compactMap { location -> String? in
            guard let total = totals.byLocation[location], total.files > 0 else { return nil }
            return "  " + pad(location.title, 22) + pad(ByteCount.format(total.allocatedBytes), 10) + "  "
                + Self.count(total.files, "file")
        }
        lines += [
            "",
            "\(Figure.documentsAndData.name): \(figure(.documentsAndData))   \(Figure.purgeable.name): \(figure(.purgeable))",
            "Backup:     " + Figure.backup.map { "\($0.name) \(figure($0))" }.joined(separator: " · "),
            "Evidence:   \(report.inventory.evidence.summary)",
        ]
        if let device = report.deviceBackup {
            // The backup's own total: what iOS backed up for the app (the export's files found in it are counted above).
            let (app, missing) = (device.app.total, device.notInExport ?? 0)
            var line = "In backup:  \(device.path)\(device.productVersion.map { " (iOS \($0))" } ?? ""): "
            line += "\(Self.count(app.files, "file")), \(ByteCount.format(app.apparentBytes)) apparent "
            line += "(\(ByteCount.format(app.allocatedBytes)) allocated, estimated in 4 KiB blocks)"
            if missing > 0 {
                line +=
                    "; \(HTMLFormatting.grouped(missing)) of its files \(missing == 1 ? "is" : "are") not in the export"
            }
            lines.append(line)
        }
        if let appSize = report.appSize {
            lines.append(
                "App size:   \(ByteCount.format(appSize.totalBytes)) (bundle + container − Caches + App Groups)")
        }
        // Files the content checks did not read are counted on the content line, not as unreadable.
        let issues = report.issues.filter { $0.reason != .contentNotRead }.count
        if issues > 0 { lines.append("Unreadable: \(Self.count(issues, "issue")) (see the report)") }
        if let coverage = report.contentCoverage {
            lines.append("Content:    " + coverage.summary.dropFirst("Content checks: ".count))
        }
        lines.append(contentsOf: findingLines(report))
        lines.append("Reports:    \(result.outputDirectory)")
        return lines.map(Terminal.visible).joined(separator: "\n") + "\n"
    }

    /// Rule groups shown, and rows shown per group; the reports list everything.
    static let groupsShown = 8
    static let rowsShownPerGroup = 2

    /// The findings by rule, most severe and most bytes at stake first (the ranking every view shares).
    private func findingLines(_ report: Report) -> [String] {
        let counts = report.findings.severityCounts(number: HTMLFormatting.grouped)
        var headline = "Findings:   " + (report.findings.isEmpty ? "none" : counts.joined(separator: ", "))
        let groups = FindingGroup.rank(report.findings)
        if groups.count > 1 { headline += " in \(groups.count) rules, most at stake first" }
        if let baseline = report.baseline, baseline.suppressed > 0 {
            headline += " (\(Self.count(baseline.suppressed, "finding")) suppressed by the baseline)"
        }
        var lines = [headline]
        for group in groups.prefix(Self.groupsShown) {
            let size = group.bytes > 0 ? ", \(ByteCount.format(group.bytes)) at stake" : ""
            lines.append(
                "  \(group.severity.rawValue) \(group.rule): \(Self.count(group.findings.count, "finding"))\(size)")
            lines += group.findings.prefix(Self.rowsShownPerGroup).map {
                "    \($0.path.isEmpty ? "(container root)" : $0.path): \($0.message)"
            }
            if group.findings.count > Self.rowsShownPerGroup {
                lines.append("    … \(HTMLFormatting.grouped(group.findings.count - Self.rowsShownPerGroup)) more")
            }
        }
        if groups.count > Self.groupsShown {
            let rest = groups.dropFirst(Self.groupsShown).reduce(0) { $0 + $1.findings.count }
            lines.append(
                "  … \(Self.count(groups.count - Self.groupsShown, "more rule")) with \(Self.count(rest, "finding")) in the report"
            )
        }
        return lines
    }

    /// "12,345 files": digits grouped as on the pages, so a large count reads at a glance.
    private static func count(_ count: Int, _ noun: String) -> String { HTMLFormatting.count(count, noun) }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
