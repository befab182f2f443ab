import StocktakeModel
import StocktakePolicy

/// The metrics file (`--metrics-file`): OpenMetrics text for node_exporter's textfile collector, gauges in base units
/// without timestamps (the collector refuses them), and only bounded labels (`app`, `source`, `severity`, `command`).
package struct RunMetrics: Sendable {
    package struct Job: Sendable {
        package let name: String
        package let durationSeconds: Double
        package let finishedAt: Double
        package let failures: Int
        package let exitStatus: Int32
        /// What tells this job's series from another's in the collector's folder, where every file is merged.
        package let app: String?
        package let source: String

        package init(
            name: String, durationSeconds: Double, finishedAt: Double, failures: Int, exitStatus: Int32,
            app: String? = nil, source: String
        ) {
            (self.name, self.app, self.source, self.durationSeconds) = (name, app, source, durationSeconds)
            (self.finishedAt, self.failures, self.exitStatus) = (finishedAt, failures, exitStatus)
        }
    }

    /// The latest run of each series the file describes (one per app and source; the last wins).
    package let runs: [HistoryRun]
    package let job: Job?

    package init(runs: [HistoryRun], job: Job?) {
        var latest: [RunSeries: HistoryRun] = [:]
        for run in runs { latest[run.series] = run }
        self.runs = latest.values.sorted { $0.series < $1.series }
        self.job = job
    }

    package func render() -> String {
        var text = ""
        func family(
            _ name: String, unit: String?, help: String, _ samples: [(labels: [(String, String)], value: String)]
        ) {
            guard !samples.isEmpty else { return }
            text += "# HELP \(name) \(Self.escaped(help, quotes: false))\n# TYPE \(name) gauge\n"
            if let unit { text += "# UNIT \(name) \(unit)\n" }
            for sample in samples {
                let labels = sample.labels.map { "\($0.0)=\"\(Self.escaped($0.1, quotes: true))\"" }.joined(
                    separator: ",")
                text += labels.isEmpty ? "\(name) \(sample.value)\n" : "\(name){\(labels)} \(sample.value)\n"
            }
        }
        func perRun(_ value: (HistoryRun) -> String?) -> [(labels: [(String, String)], value: String)] {
            runs.compactMap { run in value(run).map { (labels: Self.labels(run), value: $0) } }
        }
        family(
            "stocktake_on_disk_bytes", unit: "bytes", help: "Allocated bytes of the app's data at its latest run.",
            perRun { String($0.onDisk.allocatedBytes) })
        family(
            "stocktake_documents_and_data_bytes", unit: "bytes",
            help:
                "Allocated bytes iOS counts as the app's Documents & Data (all but tmp and Caches) at its latest run.",
            perRun { String($0.documentsAndData.allocatedBytes) })
        family(
            "stocktake_backed_up_bytes", unit: "bytes",
            help: "Allocated bytes iOS backs up (not excluded by the app or by iOS) at the latest run.",
            perRun { String($0.backedUpBytes) })
        family(
            "stocktake_purgeable_bytes", unit: "bytes", help: "Allocated bytes in Caches and tmp at the latest run.",
            perRun { String($0.purgeable.allocatedBytes) })
        family(
            "stocktake_findings", unit: nil, help: "Policy findings of the latest run, by severity.",
            runs.flatMap { run in
                Severity.allCases.sorted().reversed().map { severity in
                    (
                        labels: Self.labels(run) + [("severity", severity.rawValue)],
                        value: String(run.findingsBySeverity[severity] ?? 0)
                    )
                }
            })
        family(
            "stocktake_policy_failure", unit: nil,
            help:
                "1 when the latest run failed the policy (a finding at or above --fail-on, a budget exceeded), else 0.",
            perRun { $0.status == .policyFailure ? "1" : "0" })
        family(
            "stocktake_run_duration_seconds", unit: "seconds", help: "How long the latest run's audit took.",
            perRun { $0.durationSeconds.map(Self.number) })
        family(
            "stocktake_last_success_timestamp_seconds", unit: "seconds",
            help: "When the latest recorded run was made (the report's generatedAt), in seconds since 1970.",
            perRun { ISO8601Seconds.parse($0.generatedAt).map(Self.number) })
        if let job {
            let labels = [("command", job.name)] + (job.app.map { [("app", $0)] } ?? []) + [("source", job.source)]
            family(
                "stocktake_job_duration_seconds", unit: "seconds", help: "How long the job that wrote this file ran.",
                [(labels, Self.number(job.durationSeconds))])
            family(
                "stocktake_job_last_completion_timestamp_seconds", unit: "seconds",
                help: "When the job that wrote this file finished, in seconds since 1970.",
                [(labels, Self.number(job.finishedAt))])
            family(
                "stocktake_job_failed_inputs", unit: nil,
                help: "Inputs the job could not audit or record (0 on a clean run).", [(labels, String(job.failures))])
            family(
                "stocktake_job_exit_status", unit: nil,
                help: "The job's exit status: 0 clean, 2 a policy failure, 1 an error.",
                [(labels, String(job.exitStatus))])
        }
        return text + "# EOF\n"
    }

    private static func labels(_ run: HistoryRun) -> [(String, String)] {
        [("app", run.bundleIdentifier), ("source", run.source)]
    }

    /// Text as the format escapes it: backslash and line feed, and in a label value (`quotes`) the double quote.
    private static func escaped(_ value: String, quotes: Bool) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"" where quotes: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A number as the format writes it: integral values without a fraction, others to the millisecond.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String((value * 1000).rounded() / 1000)
    }
}
