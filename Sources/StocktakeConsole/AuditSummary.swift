import StocktakeAudit
import StocktakeModel
import StocktakePolicy
import StocktakeReport

/// The short text printed after an audit: what was audited, the totals, where the reports went. Paths,
/// the bundle id and messages come from the container: every line goes through `ConsoleText.visible`, so
/// a name can neither drive the terminal nor start a line of its own (a forged `::error` command).
public struct AuditSummary {
    public init(result: AuditResult) { self.result = result }

    let result: AuditResult

    public var text: String {
        let report = result.report
        let totals = report.inventory.totals
        var lines: [String] = []
        lines.append("Container:  \(report.container.inputPath) (\(report.container.layout.rawValue))")
        let container = report.container
        if container.identityCandidates.isEmpty {
            lines.append("Bundle id:  \(container.bundleIdentifier ?? "unknown") (from \(container.bundleIdentifierSource.rawValue))")
        } else {
            lines.append("Bundle id:  ambiguous, candidates \(container.identityCandidates.joined(separator: ", ")) (see the report's container section)")
        }
        let files = totals.byLocation.values.reduce(0) { $0 + $1.files }
        let sidecars = totals.transportArtefacts.files
        lines.append("Files:      \(files) files, \(totals.directories.files) folders" + (sidecars > 0 ? ", \(sidecars) transport artefacts" : ""))
        lines.append("On disk:    \(ByteCount.format(totals.onDisk.allocatedBytes)) allocated (\(ByteCount.format(totals.onDisk.apparentBytes)) apparent)")
        lines.append("")
        for location in Location.allCases {
            let total = totals.byLocation[location] ?? .zero
            guard total.files > 0 else { continue }
            lines.append("  " + pad(location.title, 22) + pad(ByteCount.format(total.allocatedBytes), 10) + "  \(total.files) files")
        }
        lines.append("")
        lines.append("Documents & Data: \(ByteCount.format(totals.documentsAndData.allocatedBytes))   Purgeable: \(ByteCount.format(totals.purgeable.allocatedBytes))")
        let backup = totals.backup
        lines.append("Backed up:  \(ByteCount.format(backup[.included]?.allocatedBytes ?? 0)) included, "
            + "\(ByteCount.format(backup[.excluded]?.allocatedBytes ?? 0)) excluded, "
            + "\(ByteCount.format(backup[.unknown]?.allocatedBytes ?? 0)) unknown")
        lines.append("Evidence:   \(report.inventory.evidence.summary)")
        if let device = report.deviceBackup {
            // The backup's own total: what iOS backed up for the app (the export's files found in it are counted above).
            let app = device.app.total
            lines.append("Backup:     \(device.path)\(device.productVersion.map { " (iOS \($0))" } ?? ""): \(app.files) files, "
                + "\(ByteCount.format(app.apparentBytes)) backed up (\(ByteCount.format(app.allocatedBytes)) allocated, estimated in 4 KiB blocks)"
                + (device.notInExport.map { $0 > 0 ? "; \($0) of its files are not in the export" : "" } ?? ""))
        }
        if let appSize = report.appSize { lines.append("App size:   \(ByteCount.format(appSize.totalBytes)) (bundle + container − Caches + App Groups)") }
        let issues = report.issues.count
        if issues > 0 { lines.append("Unreadable: \(issues) issue\(issues == 1 ? "" : "s") (see the report)") }
        lines.append(findingsLine(report.findings))
        for finding in report.findings.sorted(by: { $0.severity > $1.severity }).prefix(Self.findingsShown) {
            lines.append("  \(finding.severity.rawValue): \(finding.path): \(finding.message) [\(finding.rule)]")
        }
        if report.findings.count > Self.findingsShown {
            lines.append("  … \(report.findings.count - Self.findingsShown) more in the report")
        }
        lines.append("Reports:    \(result.outputDirectory)")
        return lines.map(ConsoleText.visible).joined(separator: "\n") + "\n"
    }

    public static let findingsShown = 10

    private func findingsLine(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "Findings:   none" }
        return "Findings:   " + findings.severityCounts().joined(separator: ", ")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
