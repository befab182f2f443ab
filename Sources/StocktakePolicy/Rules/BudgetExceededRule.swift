import StocktakeModel

/// A configured budget exceeded: the container, a location, a group member, or the file count.
struct BudgetExceededRule: Rule {
    static let description = RuleDescription(
        id: "budget-exceeded", title: "Storage budget exceeded",
        finds: "a configured budget exceeded (total, file count, Documents & Data, a location, a group member)",
        rationale: """
            Apple asks apps to keep their footprint in check: "Data that can be downloaded again or regenerated should \
            be stored in the Library/Caches directory", and App Review measured "on launch and/or content download, \
            your app stores 41.6 MB". A budget turns the team's own limit (per location, per chat, in total) into a \
            check that fails the pipeline when storage grows past it.
            """,
        source: "\(Guidance.dataStorage); App Review guideline 2.23 (historical)",
        defaultSeverity: .error,
        fix:
            "Find what grew (stocktake diff between versions), move re-creatable data to Caches, purge old content, or raise the budget deliberately in stocktake.yml.",
        examples: [
            RuleExample("Caches over a 10 KB budget", expectedFindings: 1, budgets: cachesBudget) { builder in
                builder.add("Library/Caches/images/a.jpg", apparentBytes: 50_000)
            },
            RuleExample("Caches within its budget", expectedFindings: 0, budgets: cachesBudget) { builder in
                builder.add("Library/Caches/images/a.jpg", apparentBytes: 5_000)
            },
        ])

    private static var cachesBudget: Budgets {
        var budgets = Budgets()
        budgets.locations[.caches] = .bytes(10_000)
        return budgets
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        context.budgets.check(context.inventory, groups: context.groups).filter(\.exceeded).map { result in
            let amount = { (value: Int64) in result.isCount ? Plural.count(value, "file") : ByteCount.format(value) }
            return RuleFinding(
                index: result.index,
                message:
                    "Budget \(VisibleText.render(result.scope, as: .message)) exceeded: \(amount(result.actual)) against a limit of \(amount(result.limit)).",
                discriminator: result.scope, bytes: result.isCount ? nil : result.actual)
        }
    }
}
