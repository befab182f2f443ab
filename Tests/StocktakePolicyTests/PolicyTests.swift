import StocktakeModel
import StocktakePolicy
import Testing

/// A rule made for these tests: flags every file, and files named "bad" twice (two discriminators).
private struct FlagEverythingRule: Rule {
    static let description = RuleDescription(
        id: "flag-everything", title: "Flags every file", finds: "every file", rationale: "For tests.", source: "tests",
        defaultSeverity: .note, fix: "Nothing.", examples: [])

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        var findings: [RuleFinding] = []
        for (i, entry) in context.inventory.entries.enumerated() where entry.type == .file {
            findings.append(RuleFinding(index: Int32(i), message: "found", bytes: entry.allocatedBytes))
            if context.inventory.name(Int32(i)).elementsEqual("bad".utf8) {
                findings.append(RuleFinding(index: Int32(i), message: "bad", discriminator: "second", severity: .error))
            }
        }
        return findings
    }
}

@Suite struct PolicyTests {
    static func context() -> PolicyContext {
        var builder = InventoryBuilder()
        builder.add("Documents/z.txt", apparentBytes: 10)
        builder.add("Documents/bad", apparentBytes: 10)
        builder.add("Documents/a.txt", apparentBytes: 10)
        return PolicyContext(inventory: builder.build(), documentsExposed: nil)
    }

    @Test func findingsAreSortedAndCarryTheRuleSeverityUnlessTheRuleChooses() {
        let findings = Policy(rules: [FlagEverythingRule()]).evaluate(Self.context())
        #expect(findings.map(\.path) == ["Documents/a.txt", "Documents/bad", "Documents/bad", "Documents/z.txt"])
        #expect(findings.filter { $0.message == "found" }.allSatisfy { $0.severity == .note })
        #expect(findings.first { $0.message == "bad" }?.severity == .error)
        #expect(findings.allSatisfy { $0.fix == "Nothing." && $0.rule == "flag-everything" })
    }

    @Test func configuredSeverityReplacesTheDefault() {
        let findings = Policy(rules: [FlagEverythingRule()], severities: ["flag-everything": .warning]).evaluate(
            Self.context())
        #expect(findings.filter { $0.message == "found" }.allSatisfy { $0.severity == .warning })
    }

    @Test func fingerprintsAreStableAndDistinct() {
        let first = Policy(rules: [FlagEverythingRule()]).evaluate(Self.context())
        let second = Policy(rules: [FlagEverythingRule()]).evaluate(Self.context())
        #expect(first.map(\.fingerprint) == second.map(\.fingerprint))
        #expect(Set(first.map(\.fingerprint)).count == first.count)
        // The documented formula: SHA-256 of "rule\npath\ndiscriminator" in hex (what `printf` | sha256sum gives).
        #expect(
            Fingerprint.make(rule: "r", path: "p", discriminator: "")
                == Digests.sha256Hex(Array("r\np\n".utf8)))
        #expect(first.allSatisfy { $0.fingerprint.count == 64 })
    }
}
