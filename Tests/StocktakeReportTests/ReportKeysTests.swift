import StocktakeReport
import TestSupport
import Testing

/// The key table the writer and the reader share is the schema's: each enum lists exactly the properties
/// Reports/report.schema.json allows for its object (the schema forbids any other), so a key added to one
/// and not the other fails here, and the writer's output, checked against the schema, uses only these.
@Suite struct ReportKeysTests {
    static func properties(at path: [String]) throws -> [String] {
        try SchemaProperties.names(in: "report.schema.json", at: path)
    }

    static func names<Key: RawRepresentable & CaseIterable>(_ type: Key.Type) -> [String] where Key.RawValue == String {
        SchemaProperties.names(type)
    }

    @Test func everyEnumListsItsObjectsSchemaProperties() throws {
        typealias K = ReportKeys
        let top = ["properties"]
        let table: [(name: String, keys: [String], path: [String])] = [
            ("Document", Self.names(K.Document.self), []),
            ("Tool", Self.names(K.Tool.self), top + ["tool"]),
            ("Container", Self.names(K.Container.self), top + ["container"]),
            ("Archive", Self.names(K.Archive.self), top + ["container", "properties", "archive"]),
            ("Device", Self.names(K.Device.self), top + ["container", "properties", "device"]),
            (
                "IdentityClue", Self.names(K.IdentityClue.self),
                top + ["container", "properties", "bundleIdentifierClues", "items"]
            ),
            (
                "MetadataDocument", Self.names(K.MetadataDocument.self),
                top + ["container", "properties", "metadata", "additionalProperties"]
            ),
            ("Evidence", Self.names(K.Evidence.self), top + ["evidence"]),
            ("Finding", Self.names(K.Finding.self), top + ["findings", "items"]),
            ("Issue", Self.names(K.Issue.self), top + ["issues", "items"]),
            ("Totals", Self.names(K.Totals.self), top + ["totals"]),
            ("AppSize", Self.names(K.AppSize.self), top + ["totals", "properties", "appSize"]),
            ("AppBundle", Self.names(K.AppBundle.self), top + ["appBundle"]),
            ("AppGroup", Self.names(K.AppGroup.self), top + ["appGroups", "items"]),
            ("Budget", Self.names(K.Budget.self), top + ["budgets", "items"]),
            ("Group", Self.names(K.Group.self), top + ["groups", "additionalProperties"]),
            (
                "GroupMember", Self.names(K.GroupMember.self),
                top + ["groups", "additionalProperties", "properties", "members", "items"]
            ),
            ("DeviceBackup", Self.names(K.DeviceBackup.self), top + ["deviceBackup"]),
            ("BackupDomain", Self.names(K.BackupDomain.self), ["$defs", "backupDomain"]),
            ("ContentCoverage", Self.names(K.ContentCoverage.self), top + ["contentCoverage"]),
            ("ContentCount", Self.names(K.ContentCount.self), ["$defs", "contentCount"]),
            ("Baseline", Self.names(K.Baseline.self), top + ["baseline"]),
            ("StaleEntry", Self.names(K.StaleEntry.self), top + ["baseline", "properties", "stale", "items"]),
            ("SizeTotal", Self.names(K.SizeTotal.self), ["$defs", "sizeTotal"]),
            ("Entry", Self.names(K.Entry.self), ["$defs", "entry"]),
        ]
        for (name, keys, path) in table {
            #expect(keys == (try Self.properties(at: path)), "ReportKeys.\(name) differs from the schema at \(path)")
        }
    }
}
