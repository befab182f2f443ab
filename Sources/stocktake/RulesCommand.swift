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
        let hint = EditDistance.closest(to: id, among: RuleRegistry.all.map { $0.description.id }).map {
            "; did you mean '\($0)'?"
        }
        throw ValidationError("unknown rule '\(id)'" + (hint ?? "; `stocktake rules` lists them"))
    }

    func run() {
        guard let id, let rule = RuleRegistry.rule(id: id) else {
            let width = RuleRegistry.all.map { $0.description.id.count }.max() ?? 0
            for rule in RuleRegistry.all {
                let description = rule.description
                let padding = String(repeating: " ", count: width - description.id.count)
                // The severity as it is decided: a rule that escalates says when ("warning; error when backed up").
                let note = description.severityNote.map { " (\($0))" } ?? ""
                print(
                    "\(description.id)\(padding)  \(description.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(description.title)\(description.isOptIn ? " (opt-in)" : "")\(note)"
                )
            }
            return
        }
        let description = rule.description
        var text = "\(description.id): \(description.title)\n"
        text +=
            "Default severity: \(description.defaultSeverity.rawValue)\(description.severityNote.map { "; \($0)" } ?? "")\(description.isOptIn ? "; opt-in: enable it in stocktake.yml" : "")\n\n\(description.rationale)\nSource: \(description.source)\n"
        if !description.options.isEmpty {
            text +=
                "\nOptions:\n"
                + description.options.map { "  \($0.name) (default \($0.defaultValue)): \($0.meaning)" }.joined(
                    separator: "\n") + "\n"
        }
        text += "\nFix: \(description.fix)\n\nExamples:\n"
        text += description.examples.map {
            "  \($0.expectedFindings == 0 ? "clean" : "finds \($0.expectedFindings)"): \($0.summary)"
        }.joined(separator: "\n")
        print(text)
    }
}
