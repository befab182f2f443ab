import StocktakeModel
import StocktakePolicy
import StocktakeReport
import Testing

@testable import StocktakeDiff

@Suite("Diff gates: --fail-on-growth and --fail-on-new-findings")
struct DiffGateTests {
    typealias F = SnapshotFile
    // Total 40,960 → 53,248 allocated (+30%); Application Support 8,192 → 20,480 (+150%); Caches unchanged.
    let diff = ReportDiff.compute(
        old: DiffSnapshots.make([
            F(path: "s", bytes: 8192), F(path: "Library/Caches/c", bytes: 32_768, location: .caches),
        ]),
        new: DiffSnapshots.make(
            [F(path: "s", bytes: 20_480), F(path: "Library/Caches/c", bytes: 32_768, location: .caches)],
            findings: [DiffSnapshots.finding("sqlite-sidecar", "x", .warning)]))

    func tripped(_ spec: String) throws -> Bool { try GrowthGate.parse(spec).evaluate(diff).tripped }

    @Test("percentages and sizes on the total")
    func totalGates() throws {
        #expect(try tripped("29%"))
        #expect(try !tripped("30%"))
        #expect(try tripped("12KB"))
        #expect(try !tripped("12288"))
        #expect(
            try GrowthGate.parse("10%").evaluate(diff).message
                == "On disk (total) grew 12.3 KB (+30%), over the 10% limit")
    }

    @Test("scoped gates read their own row")
    func scopedGates() throws {
        #expect(try tripped("applicationSupport:100%"))
        #expect(try !tripped("caches:0%"))
        #expect(try tripped("documentsAndData:10KB"))
        #expect(try !tripped("purgeable:1B"))
        #expect(try tripped("backedUp:1%"))
        // Messages name a scope as the pages do, its id (what the gate was written with) in parentheses.
        #expect(
            try GrowthGate.parse("documentsAndData:10KB").evaluate(diff).message.hasPrefix(
                "Documents & Data (documentsAndData) grew"))
        #expect(
            try GrowthGate.parse("applicationSupport:100%").evaluate(diff).message.hasPrefix(
                "Application Support (applicationSupport) grew"))
    }

    @Test("growth from nothing trips a percentage gate; shrinking never trips")
    func edgeCases() throws {
        let grown = ReportDiff.compute(
            old: DiffSnapshots.make([]),
            new: DiffSnapshots.make([F(path: "Documents/a", bytes: 1, location: .documents)]))
        #expect(try GrowthGate.parse("documents:1000%").evaluate(grown).tripped)
        let shrunk = ReportDiff.compute(
            old: DiffSnapshots.make([F(path: "a", bytes: 9000)]), new: DiffSnapshots.make([]))
        #expect(try !GrowthGate.parse("0%").evaluate(shrunk).tripped)
        #expect(try GrowthGate.parse("0%").evaluate(shrunk).message.hasPrefix("On disk (total) shrank 12.3 KB"))
    }

    @Test("a change of Int64.min bytes (a foreign report's extreme figures) is reported, not a trap")
    func extremeDelta() throws {
        func report(allocated: Int64) -> ReportSnapshot {
            let base = DiffSnapshots.make([])
            return ReportSnapshot(
                provenance: base.provenance,
                totals: .init(
                    onDisk: SizeTotal(files: 1, apparentBytes: 0, allocatedBytes: allocated), byLocation: [:],
                    documentsAndData: .zero, purgeable: .zero, backup: [:]),
                files: EntryTable(), directories: EntryTable(), groups: [:], budgets: [], findings: [])
        }
        let diff = ReportDiff.compute(old: report(allocated: 0), new: report(allocated: .min))
        let result = try GrowthGate.parse("10MB").evaluate(diff)
        #expect(!result.tripped)
        #expect(result.message.hasPrefix("On disk (total) shrank 9.2 EB"))
    }

    @Test(
        "bad specs are usage errors that say what was expected",
        arguments: [
            ("applicationSuport:10%", "did you mean 'applicationSupport'"), ("ten%", "not a percentage"),
            ("10 parsecs", "neither a percentage"),
            ("documents:", "neither a percentage"), ("-5%", "not a percentage"),
        ])
    func badSpecs(spec: String, expected: String) {
        #expect { try GrowthGate.parse(spec) } throws: {
            ($0 as? GateSpecError)?.description.contains(expected) == true
        }
    }

    @Test("new findings at or above the severity trip the gate")
    func newFindings() {
        #expect(NewFindingsGate(severity: .warning).evaluate(diff).tripped)
        #expect(!NewFindingsGate(severity: .error).evaluate(diff).tripped)
        #expect(
            NewFindingsGate(severity: .note).evaluate(diff).message
                == "1 new finding at note or above: sqlite-sidecar at x")
    }
}
