import StocktakeSQLite

/// A store is only read once its schema is what the migrations make: no trigger (one would run on every write,
/// unseen), no view (one named like a table could loop forever), each table with the expected columns.
extension HistorySchema {
    /// A table, index, view or trigger; a table's columns in order, hidden and generated ones marked.
    struct Object: Equatable, Sendable {
        let type: String
        let name: String
        let columns: [String]
    }

    static func problem(in connection: SQLiteConnection, version: Int) throws -> String? {
        difference(found: try objects(in: connection), expected: try references.get()[version])
    }

    /// What each version's migrations make (indexed by version), built once in an in-memory database.
    private static let references = Result { () throws -> [[Object]] in
        let reference = try SQLiteConnection(path: ":memory:", create: true)
        var made = [try objects(in: reference)]
        for migration in migrations {
            for statement in migration.sqlite { try reference.execute(statement) }
            made.append(try objects(in: reference))
        }
        return made
    }

    /// Everything but SQLite's own objects (`sqlite_autoindex_…`, `sqlite_sequence`, `sqlite_stat1`).
    static func objects(in connection: SQLiteConnection) throws -> [Object] {
        let listed = try connection.rows(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name, type"
        ) { (type: $0.text(0) ?? "", name: $0.text(1) ?? "") }
        return try listed.map { object in
            guard object.type == "table" else { return Object(type: object.type, name: object.name, columns: []) }
            let columns = try connection.rows(
                "SELECT name, hidden FROM pragma_table_xinfo(?) ORDER BY cid", [.text(object.name)]
            ) { row in
                (row.text(0) ?? "") + (row.int(1) == 0 ? "" : " (hidden or generated)")
            }
            return Object(type: object.type, name: object.name, columns: columns)
        }
    }

    static func difference(found: [Object], expected: [Object]) -> String? {
        for object in found where object.type == "trigger" {
            return "it has a trigger `\(object.name)`, which a history store never has"
        }
        for wanted in expected {
            guard let object = found.first(where: { $0.name == wanted.name }) else {
                return "it has no \(wanted.type) `\(wanted.name)`"
            }
            guard object.type == wanted.type else {
                return "`\(object.name)` is a \(object.type), not a \(wanted.type)"
            }
            if object.columns != wanted.columns {
                let missing = wanted.columns.filter { !object.columns.contains($0) }
                let extra = object.columns.filter { !wanted.columns.contains($0) }
                var parts: [String] = []
                if !missing.isEmpty { parts.append("missing " + missing.joined(separator: ", ")) }
                if !extra.isEmpty { parts.append("unexpected " + extra.joined(separator: ", ")) }
                if parts.isEmpty { parts.append("in another order") }
                return "table `\(object.name)` does not have the expected columns (\(parts.joined(separator: "; ")))"
            }
        }
        if let extra = found.first(where: { object in !expected.contains { $0.name == object.name } }) {
            return "it has a \(extra.type) `\(extra.name)` that a history store does not have"
        }
        return nil
    }

    /// The columns of each table at `version`: the one definition of the schema a PostgreSQL store is held to.
    package static func columns(atVersion version: Int) throws -> [String: [String]] {
        let tables = try references.get()[version].filter { $0.type == "table" }
        return Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0.columns) })
    }
}
