import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct RedownloadableInBackupRuleTests {
    /// `evidence`: by default an export that kept attributes, so unflagged entries in backed-up places are included.
    private func findings(
        _ rule: RedownloadableInBackupRule = .init(), evidence: ExportEvidence = InventoryBuilder.attributesKept,
        _ build: (inout InventoryBuilder) -> Void
    ) -> [Finding] {
        var builder = InventoryBuilder()
        builder.evidence = evidence
        build(&builder)
        let context = PolicyContext(inventory: builder.build(), documentsExposed: nil)
        // As the policy would resolve them, but with this rule instance and its options.
        return rule.evaluate(context).map { raw in
            Finding(
                rule: "redownloadable-in-backup", severity: raw.severity ?? .error,
                path: PathText.display(raw.path ?? context.inventory.path(raw.index)), message: raw.message, fix: "",
                fingerprint: "", bytes: raw.bytes)
        }
    }

    @Test func reportsTheHighestWhollyAffectedFolderWithItsBytes() {
        let results = findings { builder in
            for n in 0..<3 {
                builder.add("Library/Application Support/SDK/ImageCache/v1/\(n).dat", apparentBytes: 5_000)
            }
            builder.add("Library/Application Support/SDK/config.json", apparentBytes: 100)
        }
        #expect(results.map(\.path) == ["Library/Application Support/SDK/ImageCache"])
        #expect(results.first?.bytes == Int64(3 * 8_192))
        #expect(results.first?.severity == .error)
        #expect(results.first?.message.contains("3 re-creatable files") == true)
    }

    @Test func anExcludedSubfolderSplitsTheFindingIntoTheAffectedParts() {
        let results = findings { builder in
            builder.add("Documents/Cache/a/1.bin", apparentBytes: 10)
            builder.add("Documents/Cache/a/2.bin", apparentBytes: 10)
            builder.add("Documents/Cache/b", type: .directory, backup: .excluded, evidence: .xattr)
            builder.add("Documents/Cache/b/1.bin", apparentBytes: 10)
            builder.add("Documents/Cache/loose.bin", apparentBytes: 10)
        }
        #expect(results.map(\.path) == ["Documents/Cache/a", "Documents/Cache/loose.bin"])
    }

    @Test func unknownBackupIsAWarningThatSaysThereWasNoEvidence() throws {
        let results = findings(evidence: InventoryBuilder.noAttributes) { builder in
            builder.add("Library/Application Support/thumbs/1.jpg", apparentBytes: 100)
        }
        let finding = try #require(results.first)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("no backup evidence"))
    }

    @Test func minBytesDropsSmallFolderFindings() {
        let build: (inout InventoryBuilder) -> Void = { builder in
            builder.add("Documents/tmp/1.bin", apparentBytes: 100)
        }
        #expect(findings(RedownloadableInBackupRule(minBytes: 1_000_000), build).isEmpty)
        #expect(findings(RedownloadableInBackupRule(minBytes: 4_096), build).count == 1)
    }

    @Test func theLocationFolderItselfIsNeverTheCause() {
        // Whole-Documents findings would tell users to move their documents; only named folders below count.
        let results = findings { builder in
            builder.add("Documents/Caches/blob", apparentBytes: 10)
            builder.add("Library/Caches-old/blob", apparentBytes: 10)
        }
        #expect(results.map(\.path) == ["Documents/Caches"])
    }

    @Test func systemManagedAndTransportEntriesAreLeftAlone() {
        let results = findings { builder in
            builder.add("Documents/Cache/._x", apparentBytes: 4096, flags: .transportArtefact)
            // What URLSession makes in Library (HTTPStorages), a folder called Cache and all.
            builder.add("Library/HTTPStorages/com.example.app/Cache/cache.db", apparentBytes: 4096)
        }
        #expect(results.isEmpty)
    }

    @Test func namesAreMatchedAsWordsWhereSubstringsWouldMislead() {
        #expect(RecreatableNames.folderSignal(Array("Templates".utf8)) == nil)
        #expect(RecreatableNames.folderSignal(Array("attempts".utf8)) == nil)
        #expect(RecreatableNames.folderSignal(Array("shaderTemp".utf8)) == .everything)
        #expect(RecreatableNames.folderSignal(Array("TMP".utf8)) == .everything)
        #expect(RecreatableNames.folderSignal(Array("com.hackemist.SDImageCache".utf8)) == .everything)
        #expect(RecreatableNames.folderSignal(Array("Downloads".utf8)) == .downloadedMedia)
        #expect(RecreatableNames.folderSignal([0xFF, 0xFE]) == nil)
    }

    @Test func hashedAndUUIDNamesAreRecognised() {
        #expect(RecreatableNames.isHashedOrUUID(Array("d41d8cd98f00b204e9800998ecf8427e".utf8)))
        #expect(RecreatableNames.isHashedOrUUID(Array("da39a3ee5e6b4b0d3255bfef95601890afd80709.jpg".utf8)))
        #expect(RecreatableNames.isHashedOrUUID(Array("9EF8A1F4-3AAE-46C9-B1DA-725DE1A7B3F4@2x.ktx".utf8)))
        #expect(!RecreatableNames.isHashedOrUUID(Array("c57f04ecf8a130a2187f5402cba59b910".utf8)))
        #expect(!RecreatableNames.isHashedOrUUID(Array("9EF8A1F4_3AAE-46C9-B1DA-725DE1A7B3F4".utf8)))
        #expect(!RecreatableNames.isHashedOrUUID(Array("470828004642099781.jpg".utf8)))
    }

    @Test func hashedNamesInADownloadFolderCountButADocumentKeepsTheFolderFromBeingWhole() {
        let results = findings { builder in
            builder.add("Library/Application Support/downloads/0cc175b9c0f1b6a831c399e269772661", apparentBytes: 10)
            builder.add("Library/Application Support/downloads/manual.pdf", apparentBytes: 10)
        }
        #expect(results.map(\.path) == ["Library/Application Support/downloads/0cc175b9c0f1b6a831c399e269772661"])
    }
}
