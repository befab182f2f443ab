import ArgumentParser
import Foundation
import StocktakeDiff
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two reports of one app: what grew, appeared, moved, and which findings are new or fixed.",
        discussion: """
            Each side is a report.json or the report folder holding it; OLD is the earlier run. Reports of two \
            different apps (bundle ids) are compared with a warning on stderr, or fail with --strict. \
            Exit status: 0 no gate tripped, 1 a report cannot be read, 2 a gate tripped (or, with --strict, the \
            reports are of different apps), 64 usage error.
            """)

    @Argument(help: "The earlier report: a report.json or the folder holding it.")
    var old: String

    @Argument(help: "The later report: a report.json or the folder holding it.")
    var new: String

    @Option(help: "Output format: \(DiffFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: DiffFormat = .text

    @Option(help: "Write to this file (atomically) instead of standard output.")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Exit 2 when allocated bytes grow by more than this (repeatable): 10%, 50MB, or scoped, e.g. applicationSupport:10%.",
            valueName: "spec"))
    var failOnGrowth: [String] = []

    @Option(
        help:
            "Exit 2 when the new report has findings the old one lacks at or above this severity: error, warning or note."
    )
    var failOnNewFindings: Severity?

    @Flag(help: "Exit 2 when the two reports are of different apps (otherwise a warning).")
    var strict = false

    @Option(
        help:
            "Rows per list in text, Markdown and HTML; in JSON, changed folders only (it lists every file, and sums the folders left out)."
    )
    var limit: Int = 20

    func validate() throws {
        try require(limit >= 1, "--limit must be at least 1")
        _ = try growthGates()
    }

    func growthGates() throws -> [GrowthGate] {
        do { return try failOnGrowth.map { spec throws(GateSpecError) in try GrowthGate.parse(spec) } } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let snapshots = try attempt { try ReportReader.read(old: old, new: new) }
        let mismatch = ReportDiff.appMismatch(old: snapshots.0.provenance, new: snapshots.1.provenance)
        if let mismatch, !strict { Terminal.warning(mismatch) }
        let diff = ReportDiff.compute(
            old: snapshots.0, new: snapshots.1, options: DiffOptions(directoryLimit: limit, growthMap: format == .html))
        let gates =
            try growthGates().map { $0.evaluate(diff) }
            + (failOnNewFindings.map { [NewFindingsGate(severity: $0).evaluate(diff)] } ?? [])
        let bytes = try DiffWriter.render(diff, gates: gates, format: format, options: DiffRenderOptions(limit: limit))
        if let output {
            try attempt {
                AtomicFile.removeLeftovers(of: output)
                try AtomicFile.write(bytes, to: output)
            }
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
        // The diff is written either way; then one line per reason to fail.
        var failures = gates.filter(\.tripped).map { "gate tripped: \($0.gate): \($0.message)" }
        if strict, let mismatch { failures.insert("failed (--strict): " + mismatch, at: 0) }
        guard failures.isEmpty else {
            throw CommandFailure(.policyFailure, failures.joined(separator: "\n"), isMultiline: true)
        }
    }
}

extension DiffFormat: ExpressibleByArgument {}
extension Severity: ExpressibleByArgument {}
