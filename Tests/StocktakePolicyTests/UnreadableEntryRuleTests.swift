import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct UnreadableEntryRuleTests {
    @Test func issuesAreReportedAtTheirPathAndAnchoredToTheNearestEntry() throws {
        var builder = InventoryBuilder()
        builder.add("tmp/uploads/a.jpg", apparentBytes: 10)
        let inventory = builder.build(issues: [
            ScanIssue(
                path: Array("tmp/uploads/gone.heic".utf8), reason: .vanished, detail: "cannot read entry: no such file"),
            ScanIssue(path: Array("nowhere/at/all".utf8), reason: .vanished, detail: "cannot read entry: no such file"),
        ])
        let findings = UnreadableEntryRule().evaluate(PolicyContext(inventory: inventory, documentsExposed: nil))
        #expect(findings.count == 2)
        let vanished = try #require(findings.first)
        #expect(vanished.path == Array("tmp/uploads/gone.heic".utf8))
        #expect(vanished.index == inventory.index(ofPath: Array("tmp/uploads".utf8)))
        #expect(vanished.discriminator == "vanished")
        #expect(findings.last?.index == inventory.root)
    }

    @Test func aStaleSidecarIsNotAnUnreadableEntry() {
        // It was read fine; the report's issues list it with its own advice (real exports carry these).
        var builder = InventoryBuilder()
        builder.add("tmp/uploads/a.jpg", apparentBytes: 10)
        let inventory = builder.build(issues: [
            ScanIssue(
                path: Array("tmp/uploads/gone.heic".utf8), reason: .unpairedSidecar,
                detail: "stale AppleDouble sidecar ._gone.heic")
        ])
        #expect(UnreadableEntryRule().evaluate(PolicyContext(inventory: inventory, documentsExposed: nil)).isEmpty)
    }

    @Test func aFlaggedEntryWithItsOwnIssueIsReportedOnceAndRepeatedIssuesOnce() {
        var builder = InventoryBuilder()
        builder.add("Documents/secret", type: .directory, flags: .unreadable)
        let issue = ScanIssue(
            path: Array("Documents/secret".utf8), reason: .permissionDenied,
            detail: "cannot list folder: permission denied")
        let other = ScanIssue(
            path: Array("Documents/secret".utf8), reason: .malformedMetadata,
            detail: "AppleDouble sidecar not understood")
        let inventory = builder.build(issues: [issue, issue, other])
        let findings = UnreadableEntryRule().evaluate(PolicyContext(inventory: inventory, documentsExposed: nil))
        #expect(findings.map(\.discriminator) == ["permissionDenied", "malformedMetadata"])
        let fingerprints = Policy(rules: [UnreadableEntryRule()])
            .evaluate(PolicyContext(inventory: inventory, documentsExposed: nil)).map(\.fingerprint)
        #expect(Set(fingerprints).count == 2)
    }
}
