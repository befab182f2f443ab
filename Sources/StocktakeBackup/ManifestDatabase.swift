import CSQLite3
import StocktakeFiles
import StocktakeModel
import StocktakeSQLite

/// `Manifest.db`, opened read-only and immutable: the backup is never written, a `-wal` beside it included.
/// Every query is bounded in time, every `MBFile` blob decoded by the bounded plist parser.
public final class ManifestDatabase {
    public let folder: BackupFolder
    private let connection: SQLiteConnection

    public init(_ folder: BackupFolder) throws(BackupError) {
        self.folder = folder
        let path = BackupFolder.join(folder.path, BackupFolder.manifestDatabase)
        var header = [UInt8](repeating: 0, count: 16)
        let read: Int
        do {
            var options = RegularFile.Options.insideContainer(maxBytes: nil)
            let file = try RegularFile.open(path, options: &options)
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
    }

    /// Every record of the app domains (`AppDomain-`, `AppDomainGroup-`, `AppDomainPlugin-`), in domain order.
    public func appDomainRecords() throws(BackupError) -> [ManifestRecord] {
        try records(where: "substr(domain, 1, 9) = 'AppDomain'", [])
    }

    /// Every record of one domain.
    public func records(domain: String) throws(BackupError) -> [ManifestRecord] {
        try records(where: "domain = ?", [.text(domain)])
    }

    private func records(where condition: String, _ values: [SQLiteValue]) throws(BackupError) -> [ManifestRecord] {
        let sql = "SELECT fileID, domain, relativePath, flags, file FROM Files WHERE \(condition) ORDER BY domain, relativePath"
        do {
            return try connection.withDeadline {
                try connection.rows(sql, values) { row throws in
                    let fileID = row.text(0) ?? ""
                    let domain = row.text(1) ?? ""
                    guard let blob = row.bytes(4), !blob.isEmpty else {
                        throw BackupError.corruptManifest(path: folder.path, reason: "Manifest.db record \(fileID) (\(domain)) has no MBFile")
                    }
                    let file: MBFile
                    do throws(MBFile.Failure) {
                        file = try MBFile.decode(blob)
                    } catch {
                        throw BackupError.corruptManifest(path: folder.path, reason: "Manifest.db record \(fileID) (\(domain)): \(error.reason)")
                    }
                    return ManifestRecord(
                        fileID: fileID, domain: domain, relativePath: row.bytes(2) ?? [],
                        type: ManifestRecord.type(flags: row.int64(3), mode: file.mode), size: file.size, mode: file.mode,
                        modified: file.modified, symlinkTarget: file.target)
                }
            }
        } catch let error as BackupError {
            throw error
        } catch let error as SQLiteError where error.code == SQLITE_INTERRUPT {
            throw .corruptManifest(path: folder.path, reason: "reading Manifest.db took longer than \(connection.timeLimit)")
        } catch {
            throw .corruptManifest(path: folder.path, reason: "Manifest.db: \(error)")
        }
    }
}
