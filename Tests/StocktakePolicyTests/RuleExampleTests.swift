import Foundation
import StocktakeModel
import StocktakePolicy
import TestSupport
import Testing

/// Every rule's examples are tests: each names a small container and how many findings it must give.
@Suite struct RuleExampleTests {
    static let examples: [(rule: String, example: Int)] = RuleRegistry.all.flatMap { rule in
        rule.description.examples.indices.map { (rule.description.id, $0) }
    }

    @Test(arguments: examples.map { "\($0.rule) #\($0.example)" })
    func exampleGivesItsFindings(_ name: String) throws {
        let parts = name.split(separator: " #")
        let rule = try #require(RuleRegistry.rule(id: String(parts[0])))
        let example = rule.description.examples[Int(parts[1])!]
        let findings = rule.init().evaluate(example.context())
        #expect(findings.count == example.expectedFindings, "\(name): \(example.summary): \(findings.map(\.message))")
    }

    @Test func everyRuleHasATriggeringAndACleanExample() {
        for rule in RuleRegistry.all {
            let counts = rule.description.examples.map(\.expectedFindings)
            #expect(counts.contains(0), "\(rule.description.id) has no clean example")
            #expect(counts.contains { $0 > 0 }, "\(rule.description.id) has no triggering example")
        }
    }

    @Test func idsAreUniqueKebabCaseAndEveryRuleFileIsRegistered() throws {
        let ids = RuleRegistry.all.map { $0.description.id }
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        for id in ids { #expect(id.range(of: #"^[a-z]+(-[a-z]+)*$"#, options: .regularExpression) != nil, "\(id)") }
        let rulesFolder = Repository.path("Sources/StocktakePolicy/Rules")
        let files = try FileManager.default.contentsOfDirectory(atPath: rulesFolder).filter {
            $0.hasSuffix("Rule.swift")
        }
        let registered = Set(RuleRegistry.all.map { String(describing: $0) + ".swift" })
        for file in files { #expect(registered.contains(file), "\(file) is not in RuleRegistry.all") }
    }
}
