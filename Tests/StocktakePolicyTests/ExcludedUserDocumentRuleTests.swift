import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct ExcludedUserDocumentRuleTests {
    private func findings(_ build: (inout InventoryBuilder) -> Void) -> [Finding] {
        var builder = InventoryBuilder()
        build(&builder)
        let context = PolicyContext(inventory: builder.build(), documentsExposed: nil)
        return Policy(rules: [ExcludedUserDocumentRule()]).evaluate(context)
    }

    @Test func aFlaggedFolderIsReportedOnceWithItsContents() {
        let found = findings { builder in
            builder.add("Documents/Scans", type: .directory, backup: .excluded, evidence: .appleDouble)
            builder.add("Documents/Scans/2025/a.pdf", apparentBytes: 10000)
            builder.add("Documents/Scans/b.pdf", apparentBytes: 10000, backup: .excluded, evidence: .xattr)
        }
        #expect(found.map(\.path) == ["Documents/Scans"])
        // Two files of three blocks each, and the Scans and 2025 folders' own blocks.
        let expected: Int64 = 2 * 12288 + 2 * 4096
        #expect(found.first?.bytes == expected)
        #expect(found.first?.message.contains("2 files") == true)
        #expect(found.first?.severity == .warning)
    }

    @Test func theLegacyAttributeIsNamed() {
        let found = findings { builder in
            builder.add("Documents/Notes.txt", apparentBytes: 300, backup: .excluded, evidence: .legacyXattr)
        }
        #expect(found.map(\.path) == ["Documents/Notes.txt"])
        #expect(found.first?.message.contains("com.apple.MobileBackup") == true)
    }

    @Test func aFlaggedDocumentsFolderIsReportedAtDocuments() {
        let found = findings { builder in
            builder.add("Documents", type: .directory, backup: .excluded, evidence: .xattr)
            builder.add("Documents/a.txt", apparentBytes: 300)
        }
        #expect(found.map(\.path) == ["Documents"])
    }

    @Test func hardLinkDuplicatesAddNoBytes() {
        let found = findings { builder in
            builder.add(
                "Documents/a.txt", apparentBytes: 300, backup: .excluded, evidence: .xattr, flags: .hardLinkDuplicate)
        }
        #expect(found.map(\.bytes) == [0])
    }
}
