import StocktakeModel
import Testing

@testable import StocktakePolicy

/// Options and messages of the rules whose examples only count findings.
@Suite struct LargeFileAndSymlinkRuleTests {
    @Test func theThresholdIsInclusiveAndMessagesSaySizeAndBackupState() {
        var builder = InventoryBuilder()
        builder.evidence = InventoryBuilder.attributesKept
        builder.add("Documents/exact.bin", apparentBytes: 1_000, allocatedBytes: 1_000_000)
        builder.add("Documents/under.bin", apparentBytes: 1_000, allocatedBytes: 999_999)
        // Its attributes could not be read: what the walk then says.
        builder.add(
            "Documents/unknown.bin", apparentBytes: 1_000, allocatedBytes: 2_000_000, backup: .unknown,
            evidence: .noEvidence)
        let findings = LargeBackedUpFileRule(thresholdBytes: 1_000_000)
            .evaluate(PolicyContext(inventory: builder.build(), documentsExposed: nil))
        #expect(findings.map(\.bytes) == [1_000_000, 2_000_000])
        #expect(findings.first?.message.contains("1.0 MB") == true)
        #expect(findings.first?.message.contains("is backed up") == true)
        #expect(findings.last?.message.contains("no backup evidence") == true)
    }

    @Test func theSymlinkMessageShowsTheStoredTarget() {
        var builder = InventoryBuilder()
        builder.add("Documents/link", type: .symlink, flags: .escapesContainer, symlinkTarget: "/private/var/mobile/x")
        let findings = SymlinkEscapeRule().evaluate(PolicyContext(inventory: builder.build(), documentsExposed: nil))
        #expect(findings.count == 1)
        #expect(findings.first?.message.contains("“/private/var/mobile/x”") == true)
    }
}
