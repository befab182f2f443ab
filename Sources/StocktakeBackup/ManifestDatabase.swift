import StocktakeFiles
import StocktakeModel
import StocktakeSQLite

/// `Manifest.db`, opened read-only and immutable (a `-wal` beside it included). Its schema is checked before any
/// query, and every query is bounded by work that follows from the file's size (`BackupLimits`).
package final class ManifestDatabase {
    package let folder: BackupFolder
    private let connection: SQLiteConnection
    /// What its rows and the work of reading them are bounded by.
    package let databaseBytes: Int64

    package init(_ folder: BackupFolder) throws(BackupError) {
        self.folder = folder
        let path = Paths.join(folder.path, BackupFolder.manifestDatabase)
        var header = [UInt8](repeating: 0, count: 16)
        let read: Int
        do {
            var options = RegularFile.Options.insideContainer(maxBytes: nil)
            let file = try RegularFile.open(path, options: &options)
            databaseBytes = file.size
            read = try header.withUnsafeMutableBytes { buffer throws(FileRefusal) in try file.readPrefix(into: buffer) }
        } catch {
            throw .corruptManifest(path: folder.path, reason: "cannot read Manifest.db: \(error)")
        }
        guard read > 0 else { throw .corruptManifest(path: folder.path, reason: "Manifest.db is empty") }
        // An encrypted backup's Manifest.db is ciphertext until decrypted with the keybag's key.
        guard read == 16, header == Array("SQLite format 3\u{0}".utf8) else {
            throw .encrypted(path: folder.path, reason: "Manifest.db is not an SQLite database")
        }
        do {
            connection = try SQLiteConnection(readingImmutable: ResolvedPath.of(path))
        } catch {
            throw .corruptManifest(path: folder.path, reason: "cannot open Manifest.db: \(error)")
        }
        connection.limitValueLength(to: Int32(BackupLimits.maxValueBytes))
        let problem: String?
        do {
            problem = try connection.withStepLimit(BackupLimits.maxSteps(databaseBytes: databaseBytes)) {
                try ManifestSchema.problem(in: connection)
            }
        } catch {
            throw failure(error)
        }
        if let problem { throw .unexpected(path: folder.path, reason: problem) }
    }

    /// Every record of the app domains (`AppDomain-`, `AppDomainGroup-`, `AppDomainPlugin-`), in the table's order.
    package func appDomainRecords() throws(BackupError) -> [ManifestRecord] {
        // `length(file)` is read from the record header: a blob over the limit is never copied.
        let sql =
            "SELECT fileID, domain, relativePath, flags, length(file), CASE WHEN length(file) <= \(BackupLimits.maxMBFileBytes) THEN file END FROM Files WHERE substr(domain, 1, 9) = 'AppDomain'"
        let maxRows = BackupLimits.maxRows(databaseBytes: databaseBytes)
        var count: Int64 = 0
        do {
            return try connection.withStepLimit(BackupLimits.maxSteps(databaseBytes: databaseBytes)) {
                try connection.rows(sql) { row throws in
                    count += 1
                    guard count <= maxRows else {
                        throw unexpected(
                            "Manifest.db yields more than \(maxRows) rows, more than its \(databaseBytes) bytes can hold (at least 10 bytes a row)"
                        )
                    }
                    return try record(row)
                }
            }
        } catch let error as BackupError {
            throw error
        } catch {
            throw failure(error)
        }
    }

    /// One row, its lengths checked against `BackupLimits` before its `MBFile` is decoded.
    private func record(_ row: SQLiteStatement) throws(BackupError) -> ManifestRecord {
        let fileID = row.text(0) ?? ""
        let domain = row.text(1) ?? ""
        let relativePath = row.bytes(2) ?? []
        guard fileID.utf8.count <= BackupLimits.maxFileIDBytes else {
            throw unexpected(
                "a Manifest.db record (\(domain.prefix(80))) has a fileID of \(fileID.utf8.count) bytes; a fileID is 40 hex digits (limit \(BackupLimits.maxFileIDBytes) bytes)"
            )
        }
        let place = "Manifest.db record \(fileID)"
        guard domain.utf8.count <= BackupLimits.maxDomainBytes else {
            throw unexpected(
                "\(place) has a domain of \(domain.utf8.count) bytes, more than the \(BackupLimits.maxDomainBytes)-byte limit"
            )
        }
        guard relativePath.count <= BackupLimits.maxRelativePathBytes else {
            throw unexpected(
                "\(place) (\(domain)) has a relativePath of \(relativePath.count) bytes, more than the \(BackupLimits.maxRelativePathBytes) bytes iOS allows a path (PATH_MAX)"
            )
        }
        let blobBytes = row.int64(4)
        guard blobBytes <= BackupLimits.maxMBFileBytes else {
            throw unexpected(
                "\(place) (\(domain)) has an MBFile of \(blobBytes) bytes, more than the \(BackupLimits.maxMBFileBytes)-byte limit (a real one is about 500 bytes)"
            )
        }
        guard let blob = row.bytes(5), !blob.isEmpty else {
            throw .corruptManifest(path: folder.path, reason: "\(place) (\(domain)) has no MBFile")
        }
        let file: MBFile
        do throws(MBFile.Failure) {
            file = try MBFile.decode(blob)
        } catch {
            throw .corruptManifest(path: folder.path, reason: "\(place) (\(domain)): \(error.reason)")
        }
        return ManifestRecord(
            fileID: fileID, domain: domain, relativePath: relativePath,
            type: ManifestRecord.type(flags: row.int64(3), mode: file.mode), size: file.size, mode: file.mode,
            modified: file.modified, symlinkTarget: file.target, protectionClass: file.protectionClass)
    }

    /// What SQLite's failure means here: a bound reached (refused as no backup tool's output), or damage.
    private func failure(_ error: any Error) -> BackupError {
        guard let error = error as? SQLiteError else {
            return .corruptManifest(path: folder.path, reason: "Manifest.db: \(error)")
        }
        switch error.kind {
        case .interrupted:
            let steps = BackupLimits.maxSteps(databaseBytes: databaseBytes)
            return unexpected(
                "reading Manifest.db takes more than \(steps) SQLite steps, the bound for its \(databaseBytes) bytes")
        case .tooBig:
            return unexpected(
                "Manifest.db holds a value of more than \(BackupLimits.maxValueBytes) bytes, the limit for any one field"
            )
        default:
            return .corruptManifest(path: folder.path, reason: "Manifest.db: \(error)")
        }
    }

    private func unexpected(_ reason: String) -> BackupError { .unexpected(path: folder.path, reason: reason) }
}

/// `Manifest.db` is only queried once `Files` is an ordinary table with exactly the columns backup tools write and
/// there is no view or trigger: a view named `Files` could stand for any query, a generated column compute anything.
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
