import TestSupport
import Testing

/// docs/policy.md describes the rules as `RuleRegistry` defines them: its rule table and its section per rule are
/// what `RuleDocumentation` renders. After changing a rule, `STOCKTAKE_RECORD_GOLDEN=1 swift test --disable-xctest
/// --filter RuleDocumentationTests` rewrites both blocks (and fails once, so the change is reviewed). Serialized:
/// both tests rewrite the same file when recording.
@Suite(.serialized) struct RuleDocumentationTests {
    @Test func thePolicyDocumentsRuleTableIsTheRegistrys() throws {
        let markers = RuleDocumentation.tableMarkers
        try Golden.checkBlock(RuleDocumentation.table(), in: "docs/policy.md", between: markers.begin, and: markers.end)
    }

    @Test func thePolicyDocumentsRuleSectionsAreTheRegistrys() throws {
        let markers = RuleDocumentation.detailMarkers
        try Golden.checkBlock(
            RuleDocumentation.details(), in: "docs/policy.md", between: markers.begin, and: markers.end)
    }

    @Test func markdownStructureNeverStartsAWrappedLine() {
        let wrapped = RuleDocumentation.wrapped(
            String(repeating: "word ", count: 22) + "- not a list; # not a heading", width: 110)
        #expect(
            wrapped.split(separator: "\n").allSatisfy {
                !RuleDocumentation.startsMarkdownBlock($0.split(separator: " ")[0])
            })
        #expect(
            RuleDocumentation.text("<Application_Home>/Library and `<kept>`")
                == "&lt;Application_Home>/Library and `<kept>`")
    }
}
