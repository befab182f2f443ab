import StocktakeSQLite

/// `Manifest.db` is only queried once its schema is a backup's: `Files` an ordinary table with exactly the
/// columns backup tools write, and no view or trigger anywhere. A view named `Files` could stand for any
/// query (an endless recursive one, a million `zeroblob`s), a generated column could compute any value, a
/// trigger never runs on a read-only file but has no business there either. Other tables (`Properties`) and
/// indexes are left alone: nothing reads them.
enum ManifestSchema {
    static let table = "Files"
    static let columns = ["fileID", "domain", "relativePath", "flags", "file"]

    /// Why the schema is not a backup's, worded for the person holding the file; nil when it is.
    static func problem(in connection: SQLiteConnection) throws -> String? {
        let objects = try connection.rows("SELECT type, name, sql FROM sqlite_master ORDER BY name, type") {
            (type: $0.text(0) ?? "", name: $0.text(1) ?? "", sql: $0.text(2) ?? "")
        }
        for object in objects where object.type == "view" || object.type == "trigger" {
            return "its Manifest.db has a \(object.type) `\(object.name)`"
        }
        guard let files = objects.first(where: { $0.name.lowercased() == table.lowercased() && $0.type == "table" })
        else {
            return "its Manifest.db has no table `\(table)`"
        }
        // A virtual table's rows come from its module's code, not from the file.
        guard !files.sql.uppercased().hasPrefix("CREATE VIRTUAL") else {
            return "its Manifest.db's `\(table)` is a virtual table"
        }
        let found = try connection.rows(
            "SELECT name, hidden FROM pragma_table_xinfo(?) ORDER BY cid", [.text(files.name)]
        ) {
            (name: $0.text(0) ?? "", hidden: $0.int(1))
        }
        if let generated = found.first(where: { $0.hidden != 0 }) {
            return "its Manifest.db's `\(table)` has a hidden or generated column `\(generated.name)`"
        }
        guard found.map({ $0.name.lowercased() }) == columns.map({ $0.lowercased() }) else {
            return
                "its Manifest.db's `\(table)` has the columns (\(found.map(\.name).joined(separator: ", "))), not (\(columns.joined(separator: ", ")))"
        }
        return nil
    }
}
