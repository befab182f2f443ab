import StocktakeModel
import Testing

@testable import StocktakePolicy

/// Finding messages count in the right number: "1 file", never "1 files".
@Suite struct PluralMessageTests {
    @Test("many-small-files with a threshold of one file says \"1 file\"")
    func manySmallFilesSingular() throws {
        var builder = InventoryBuilder()
        builder.add("Library/Application Support/Thumbs/a.jpg", apparentBytes: 100)
        let inventory = builder.build()
        let findings = ManySmallFilesRule(minFiles: 1, maxMedianBytes: 4_096).evaluate(
            PolicyContext(inventory: inventory, documentsExposed: nil))
        let message = try #require(findings.first?.message)
        #expect(message.hasPrefix("1 file with"), "\(message)")
    }

    @Test("a budget of one file, exceeded: \"against a limit of 1 file\"")
    func budgetSingular() throws {
        var builder = InventoryBuilder()
        builder.add("tmp/a.bin", apparentBytes: 10)
        builder.add("tmp/b.bin", apparentBytes: 10)
        var budgets = Budgets()
        budgets.locations[.tmp] = .files(1)
        let findings = BudgetExceededRule().evaluate(
            PolicyContext(inventory: builder.build(), documentsExposed: nil, budgets: budgets))
        let message = try #require(findings.first?.message)
        #expect(message.hasSuffix("2 files against a limit of 1 file."), "\(message)")
    }
}
