import StocktakeContent
import StocktakeModel
import StocktakeScan

/// What the content checks read beyond the inventory, and the files `--backup` records with protection class None.
struct ContentScope: Sendable {
    let unprotected: Set<Int32>
    let companions: [CompanionContainer]

    struct Result: Sendable {
        var own: [SensitiveItem] = []
        var companions: [CompanionSensitiveItem] = []
        var coverage = ContentCoverage()
        var issues: [ScanIssue] = []
    }

    func contentPass(input: AuditInput, inventory: Inventory, threads: Int, walkScan: WalkTextScan?) -> Result {
        let pass = input.contentPass(in: inventory, threads: threads, walkScan: walkScan)
        var result = Result(
            own: pass.items.map { $0.unprotected ? $0 : $0.with(unprotected: unprotected.contains($0.entry)) },
            coverage: pass.coverage, issues: pass.issues)
        for companion in companions {
            let read = companion.contentPass(threads: threads)
            result.companions += read.items
            result.coverage.merge(read.coverage)
            result.issues += read.issues
        }
        return result
    }
}
