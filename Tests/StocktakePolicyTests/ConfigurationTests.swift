import StocktakeModel
import Testing

@testable import StocktakePolicy

/// stocktake.yml: every documented key parses; mistakes are errors that name the line and the nearest word.
@Suite struct ConfigurationTests {
    func parse(_ text: String) throws(ConfigurationError) -> PolicyConfiguration {
        try PolicyConfiguration.parse(text, file: "stocktake.yml")
    }

    func error(_ text: String) -> ConfigurationError? {
        do {
            _ = try Policy(configuration: try parse(text))
            return nil
        } catch {
            return error
        }
    }

    @Test func theDefaultConfigurationParsesAndChangesNothing() throws {
        let configuration = try parse(DefaultConfiguration.text)
        #expect(configuration.rules.count == RuleRegistry.all.count)
        let policy = try Policy(configuration: configuration)
        #expect(policy.rules.count == Policy().rules.count, "opt-in rules stay off, as without a configuration")
        #expect(!Policy().rules.contains { $0 is DuplicateContentRule })
        let optedIn = try Policy(configuration: try parse("rules:\n  duplicate-content: {minimumBytes: 1MB}"))
        #expect(optedIn.duplicateMinimumBytes == 1_000_000)
        #expect(configuration.budgets.isEmpty && configuration.groups.isEmpty && configuration.exclude.isEmpty)
        // No severity is pinned: rules whose severity depends on the container keep adapting.
        #expect(configuration.rules.values.allSatisfy { $0.severity == nil })
    }

    @Test("stocktake init's sizes are written with units and read back as the defaults")
    func defaultSizesHaveUnits() throws {
        #expect(DefaultConfiguration.text.contains("thresholdBytes: 50MB"))
        #expect(DefaultConfiguration.text.contains("minimumBytes: 4KiB"))
        #expect(!DefaultConfiguration.text.contains("50000000"))
        for bytes: Int64 in [1, 999, 4_096, 16_384, 1_000_000, 4_000_000, 50_000_000, 3 << 30, 1_500_000_000] {
            #expect(ByteQuantity.parse(ByteQuantity.text(bytes)) == bytes, "\(bytes)")
        }
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try parse(
            """
            documentsVisible: true
            exclude: ["tmp/**", "Library/Caches/sdk/*.bin"]
            groups:
              chats: "Library/Application Support/Chats/{id}/**"
            budgets:
              total: 500MB
              files: 100_000
              documentsAndData: 1.5GB
              locations: {caches: 64KiB, tmp: 500 files}
              groups: {chats: 50MB}
            rules:
              large-backed-up-file: {thresholdBytes: 10MB, severity: error}
              many-small-files: {enabled: false}
            """)
        #expect(configuration.documentsVisible == true)
        #expect(configuration.exclude.map(\.pattern) == ["tmp/**", "Library/Caches/sdk/*.bin"])
        #expect(configuration.budgets.total == 500_000_000)
        #expect(configuration.budgets.files == 100_000)
        #expect(configuration.budgets.documentsAndData == 1_500_000_000)
        #expect(configuration.budgets.locations[.caches] == .bytes(65_536))
        #expect(configuration.budgets.locations[.tmp] == .files(500))
        #expect(configuration.budgets.groups["chats"] == .bytes(50_000_000))
        let policy = try Policy(configuration: configuration)
        #expect(!policy.rules.contains { type(of: $0).description.id == "many-small-files" })
        #expect(policy.severities["large-backed-up-file"] == .error)
        let rule = try #require(policy.rules.first { $0 is LargeBackedUpFileRule } as? LargeBackedUpFileRule)
        #expect(rule.thresholdBytes == 10_000_000)
    }

    @Test(arguments: [
        ("rulez: {}", "stocktake.yml:1: unknown key 'rulez'; did you mean 'rules'?"),
        (
            "rules:\n  documents-hiden-data: {}",
            "stocktake.yml:2: unknown rule id 'documents-hiden-data'; did you mean 'documents-hidden-data'?"
        ),
        (
            "rules:\n  preferences-bloat: {maxBites: 1MB}",
            "stocktake.yml:2: unknown option of preferences-bloat 'maxBites'; did you mean 'maxBytes'?"
        ),
        ("rules:\n  preferences-bloat: {severity: fatal}", "stocktake.yml:2: unknown severity 'fatal'"),
        (
            "rules:\n  preferences-bloat: {maxBytes: lots}",
            "stocktake.yml:2: preferences-bloat.maxBytes: 'lots' is not a size"
        ),
        ("budgets:\n  locations: {cache: 1MB}", "stocktake.yml:2: unknown location 'cache'; did you mean 'caches'?"),
        ("budgets:\n  groups: {chats: 1MB}", "no group of that name"),
        ("budgets:\n  files: -5", "stocktake.yml:2: budgets.files: '-5' is not a whole number"),
        ("budgets:\n  total: -5 files", "stocktake.yml:2:"),
        ("groups:\n  chats: \"Library/Chats/**\"", "needs exactly one {id}"),
        ("exclude: tmp", "exclude must be a list"),
        ("rules: [a, b]", "rules must be a mapping"),
        ("key: [unclosed", "not valid YAML"),
    ])
    func mistakesAreReportedWithTheirLine(_ text: String, _ expected: String) {
        let found = error(text)
        #expect(found?.description.contains(expected) == true, "\(found?.description ?? "no error")")
    }

    @Test func everyRuleAcceptsItsDocumentedOptionsAndNoOthers() throws {
        for rule in RuleRegistry.all {
            let description = rule.description
            let values = Dictionary(
                uniqueKeysWithValues: description.options.map { ($0.name, OptionValue($0.defaultValue)) })
            _ = try rule.configured(RuleOptionValues(ruleID: description.id, values: values))
            #expect(throws: ConfigurationError.self, "\(description.id)") {
                _ = try rule.configured(
                    RuleOptionValues(ruleID: description.id, values: ["nonsense": OptionValue("1")]))
            }
        }
    }

    @Test func globsMatchPathsAsDocumented() {
        #expect(Glob("tmp/**").matches("tmp/a/b.txt"))
        #expect(Glob("tmp/**").matches("tmp"))
        #expect(!Glob("tmp/*").matches("tmp/a/b.txt"))
        #expect(Glob("Library/Caches/*.db").matches("Library/Caches/Cache.db"))
        #expect(Glob("**/*.log").matches("Documents/x/debug.log"))
        #expect(Glob("Documents/?.txt").matches("Documents/a.txt"))
        #expect(!Glob("Documents/?.txt").matches("Documents/ab.txt"))
    }

    @Test func groupsListTheirMembersLargestFirstAndExcludeHidesFindings() {
        var builder = InventoryBuilder()
        builder.add("Library/Application Support/Chats/small/a.jpg", apparentBytes: 10)
        builder.add("Library/Application Support/Chats/big/v.mp4", apparentBytes: 100_000)
        builder.add("Library/Application Support/Chats/big/sub/w.mp4", apparentBytes: 100_000)
        builder.add("Library/Application Support/Chats/empty", type: .directory)
        let inventory = builder.build()
        let group = GroupResult.compute(
            GroupDefinition(name: "chats", pattern: "Library/Application Support/Chats/{id}/**"), in: inventory)
        #expect(group.members.map(\.id) == ["big", "small"])
        #expect(group.members.first?.total.files == 2)
        var budgets = Budgets()
        budgets.groups["chats"] = .bytes(50_000)
        let context = PolicyContext(inventory: inventory, documentsExposed: nil, budgets: budgets, groups: [group])
        let findings = Policy(rules: [BudgetExceededRule()]).evaluate(context)
        #expect(findings.map(\.path) == ["Library/Application Support/Chats/big"])
        #expect(Policy(rules: [BudgetExceededRule()], exclude: [Glob("Library/**")]).evaluate(context).isEmpty)
    }
}
