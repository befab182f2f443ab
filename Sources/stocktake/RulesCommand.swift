import ArgumentParser
import StocktakeModel
import StocktakePolicy

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the policy rules, or explain one.")

    @Argument(help: "A rule id: explain that rule (rationale, source, options, fix, examples).")
    var id: String?

    func validate() throws {
        guard let id, RuleRegistry.rule(id: id) == nil else { return }
        let ids = RuleRegistry.all.map { $0.description.id }
        let hint = EditDistance.closest(to: id, among: ids).map { "; did you mean '\($0)'?" }
        throw ValidationError("unknown rule '\(id)'" + (hint ?? "; `stocktake rules` lists them"))
    }

    func run() {
        guard let id, let rule = RuleRegistry.rule(id: id) else {
            let width = RuleRegistry.all.map { $0.description.id.count }.max() ?? 0
            for rule in RuleRegistry.all {
                let rule = rule.description
                let severity = rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                // The severity as it is decided: a rule that escalates says when ("warning; error when backed up").
                let note = (rule.isOptIn ? " (opt-in)" : "") + (rule.severityNote.map { " (\($0))" } ?? "")
                let name = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                print("\(name)  \(severity)  \(rule.title)\(note)")
            }
            return
        }
        let about = rule.description
        let severity =
            about.defaultSeverity.rawValue + (about.severityNote.map { "; \($0)" } ?? "")
            + (about.isOptIn ? "; opt-in: enable it in stocktake.yml" : "")
        var lines = [
            "\(about.id): \(about.title)", "Default severity: \(severity)", "", about.rationale,
            "Source: \(about.source)",
        ]
        if !about.options.isEmpty {
            lines +=
                ["", "Options:"] + about.options.map { "  \($0.name) (default \($0.defaultValue)): \($0.meaning)" }
        }
        lines += ["", "Fix: \(about.fix)", "", "Examples:"]
        lines += about.examples.map { example in
            "  \(example.expectedFindings == 0 ? "clean" : "finds \(example.expectedFindings)"): \(example.summary)"
        }
        print(lines.joined(separator: "\n"))
    }
}
