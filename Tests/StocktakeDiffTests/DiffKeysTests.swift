import TestSupport
import Testing

@testable import StocktakeDiff

/// diff.json's key table is its schema's: each enum lists exactly the properties Reports/diff.schema.json allows for
/// its object, so a key added to one and not the other fails here (the writer's output is checked against the schema).
@Suite struct DiffKeysTests {
    static let schema = "diff.schema.json"

    @Test func everyEnumListsItsObjectsSchemaProperties() throws {
        typealias K = DiffKeys
        let top = ["properties"]
        let table: [(name: String, keys: [String], path: [String])] = [
            ("Document", SchemaProperties.names(K.Document.self), []),
            ("Tool", SchemaProperties.names(K.Tool.self), top + ["tool"]),
            ("NotShown", SchemaProperties.names(K.NotShown.self), top + ["directoriesNotShown"]),
            ("Files", SchemaProperties.names(K.Files.self), top + ["files"]),
            ("Budget", SchemaProperties.names(K.Budget.self), top + ["budgets", "items"]),
            ("Findings", SchemaProperties.names(K.Findings.self), top + ["findings"]),
            ("Gate", SchemaProperties.names(K.Gate.self), top + ["gates", "items"]),
            ("Figures (delta)", SchemaProperties.names(K.Figures.self), ["$defs", "delta"]),
            ("Figures (percent)", SchemaProperties.names(K.Figures.self), ["$defs", "percent"]),
            ("Figures (sides)", SchemaProperties.names(K.Figures.self), ["$defs", "figures"]),
            ("Move", SchemaProperties.names(K.Move.self), ["$defs", "move"]),
            ("BudgetSide", SchemaProperties.names(K.BudgetSide.self), ["$defs", "budgetSide", "oneOf", "0"]),
            // report.json's finding keys, written by its one writer, which leaves `fix` out here.
            ("Finding", SchemaProperties.names(K.Finding.self).filter { $0 != "fix" }, ["$defs", "finding"]),
            ("Provenance", SchemaProperties.names(K.Provenance.self), ["$defs", "provenance"]),
        ]
        for (name, keys, path) in table {
            #expect(
                keys == (try SchemaProperties.names(in: Self.schema, at: path)),
                "DiffKeys.\(name) differs from the schema at \(path)")
        }
    }

    /// A row's keys are spread over the schema's row definitions (every row, a path row, a file row, a member row).
    @Test func rowKeysAreTheRowDefinitionsTogether() throws {
        var fromSchema = Set<String>()
        for definition in ["rowCore", "pathRow", "fileRow", "memberRow"] {
            fromSchema.formUnion(try SchemaProperties.names(in: Self.schema, at: ["$defs", definition], closed: false))
        }
        #expect(SchemaProperties.names(DiffKeys.Row.self) == fromSchema.sorted())
    }
}
