import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct LibraryRootFileRuleTests {
    @Test func reportsRootFilesAndOwnFoldersWithTheirBytesButNotSystemManagedOnes() {
        var builder = InventoryBuilder()
        builder.add("Library/feature_flags.json", apparentBytes: 800)
        builder.add("Library/Downloads/a.mp4", apparentBytes: 5000)
        builder.add("Library/Downloads/b/c.mp4", apparentBytes: 5000)
        builder.add("Library/Keyboard", type: .directory, flags: .systemManaged)
        builder.add("Library/Keyboard/dynamic-text.dat", apparentBytes: 100, flags: .systemManaged)
        builder.add("Documents/feature_flags.json", apparentBytes: 800)
        let context = PolicyContext(inventory: builder.build(), documentsExposed: nil)
        let found = Policy(rules: [LibraryRootFileRule()]).evaluate(context)
        #expect(found.map(\.path) == ["Library/Downloads", "Library/feature_flags.json"])
        // Two 8 KiB files plus two folders' own blocks; the JSON file rounds up to one block.
        let expected: [Int64?] = [4 * 4096 + 2 * 4096, 4096]
        #expect(found.map(\.bytes) == expected)
        #expect(found.first?.message.contains("2 files") == true)
    }

    @Test func noLibraryNoFindings() {
        var builder = InventoryBuilder()
        builder.add("Documents/a.txt", apparentBytes: 1)
        let context = PolicyContext(inventory: builder.build(), documentsExposed: nil)
        #expect(LibraryRootFileRule().evaluate(context).isEmpty)
    }
}
