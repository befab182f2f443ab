import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeBackup
@testable import StocktakeSQLite

/// Generated hostile `Manifest.db` files (issue 22): rows with paths that climb, start at `/`, repeat, hold empty
/// or dot components; unknown flags; `MBFile` blobs that are random, truncated, empty, missing or over the limit;
/// other domains. Whatever a seed makes, the backup is refused with a message naming the backup, or read into an
/// inventory that holds no path a file system would resolve outside the domain and no more files than rows.
@Suite struct HostileManifestPropertyTests {
    static let components = [
        "Documents", "Library", "Caches", "..", ".", "", "a.txt", "Preferences", "x", "tmp", "é", " ",
    ]
    /// What the `file` column holds, as SQL over the fixture's one real MBFile (`mbfile`).
    static let blobs = [
        "mbfile", "substr(mbfile, 1, 40)", "substr(mbfile, 1, length(mbfile) - 1)", "randomblob(300)", "x''", "NULL",
        "zeroblob(1048577 + 10)", "mbfile || randomblob(5)",
    ]

    static func path(_ random: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...6, using: &random)
        var text = (0..<count).map { _ in components.randomElement(using: &random)! }.joined(separator: "/")
        if Bool.random(using: &random) && Int.random(in: 0..<4, using: &random) == 0 { text = "/" + text }
        return text
    }

    @Test(arguments: 0..<48)
    func anyGeneratedManifestIsRefusedOrReadSafely(_ seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 7919)
        let backup = try HostileBackupTests.fixture()
        let connection = try SQLiteConnection(path: backup.path + "/Manifest.db", create: false)
        var rows = try connection.rows(
            "SELECT COUNT(*) FROM Files WHERE domain = ?", [.text(HostileBackupTests.domain)]
        ) { $0.int(0) }[0]
        for index in 0..<Int.random(in: 1...12, using: &random) {
            let domain = Int.random(in: 0..<5, using: &random) == 0 ? "AppDomain-other" : HostileBackupTests.domain
            let flags = [1, 1, 2, 4, 0, 3, 9][Int.random(in: 0..<7, using: &random)]
            // Mostly sound archives, so that most seeds get past the rows to the paths; one bad blob refuses all.
            let blob = Int.random(in: 0..<6, using: &random) == 0 ? Self.blobs.randomElement(using: &random)! : "mbfile"
            try connection.execute(
                "INSERT OR REPLACE INTO Files VALUES (?, ?, ?, ?, (SELECT \(blob) FROM (SELECT file AS mbfile FROM Files WHERE relativePath = 'Documents/a.txt')))",
                [
                    .text(String(format: "%040x", seed * 100 + index)), .text(domain), .text(Self.path(&random)),
                    .integer(Int64(flags)),
                ])
            if domain == HostileBackupTests.domain { rows += 1 }
        }
        let read: DeviceBackup
        do {
            read = try DeviceBackup.read(backup.path)
        } catch {
            #expect(error.description.contains(backup.path), "seed \(seed): \(error.description)")
            return
        }
        let tree: DomainTree
        do {
            tree = try read.app(HostileBackupTests.app, role: .input).tree
        } catch {
            #expect(!error.description.isEmpty, "seed \(seed)")
            return
        }
        let inventory = ManifestInventory.build(tree: tree, folder: read.folder).inventory
        var files = 0
        inventory.forEachInPathOrder { index, path in
            guard index != inventory.root else { return }
            let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            #expect(path.first != UInt8(ascii: "/"), "seed \(seed): \(String(decoding: path, as: UTF8.self))")
            #expect(
                !components.contains { $0.isEmpty || $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) },
                "seed \(seed): \(String(decoding: path, as: UTF8.self))")
            if !inventory.entries[Int(index)].isDirectory { files += 1 }
        }
        #expect(files <= rows, "seed \(seed): \(files) files from \(rows) rows")
    }
}
