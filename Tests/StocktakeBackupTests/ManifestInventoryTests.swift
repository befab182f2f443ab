import Foundation
import StocktakeBackup
import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// A device backup's inventory is built as the walk's: the same tree, listed by a manifest or walked on disk, gives
/// every entry the same place (location, made by iOS or not); only the backup states differ, which the backup decides.
@Suite struct ManifestInventoryTests {
    static let domain = "AppDomain-a.b"
    /// Files at every level the classification looks at: the root, Library, Caches, a folder in Caches, tmp.
    static let files = [
        "Documents/notes/a.txt", "Library/Application Support/db.sqlite", "Library/Preferences/a.b.plist",
        "Library/Cookies/Cookies.binarycookies", "Library/WebKit/WebsiteData/LocalStorage/x.localstorage",
        "Library/com.apple.something/state", "Library/SplashBoard/Snapshots/s.ktx", "Library/Saved Application State/w",
        "Library/Caches/a.b/Cache.db", "Library/Caches/a.b/fsCachedData/F1", "Library/Caches/com.apple.x/y",
        "Library/Caches/Snapshots/z", "Library/Caches/plain/thing", "tmp/WebKit/t", "tmp/upload.part",
        "SystemData/com.apple.x/y", "StoreKit/receipt", "GeoJSON/route.json", "Other/thing",
    ]

    @Test func everyEntryIsPlacedAsTheWalkPlacesIt() throws {
        let backup = try DeviceBackupFixture([
            "records": Self.files.map { DeviceBackupFixture.record(Self.domain, $0, content: "x") }
        ])
        let read = try DeviceBackup.read(backup.path)
        let listed = ManifestInventory.build(tree: try read.app("a.b", role: .input).tree, folder: read.folder)
            .inventory
        let tree = try TemporaryTree("walked")
        for file in Self.files { try tree.write(file, string: "x") }
        let walked = try InventoryScanner.scan(root: tree.path(""), options: ScanOptions())

        var places: [String: (Location, Bool)] = [:]
        walked.forEachInPathOrder { index, path in
            let entry = walked.entries[Int(index)]
            places[String(decoding: path, as: UTF8.self)] = (entry.location, entry.flags.contains(.systemManaged))
        }
        var compared = 0
        listed.forEachInPathOrder { index, path in
            let name = String(decoding: path, as: UTF8.self)
            let entry = listed.entries[Int(index)]
            guard let walkedPlace = places[name] else {
                Issue.record("\(name) is listed but not walked")
                return
            }
            #expect(entry.location == walkedPlace.0, "\(name)")
            #expect(entry.flags.contains(.systemManaged) == walkedPlace.1, "\(name): made by iOS")
            #expect(entry.backup == .included && entry.evidence == .deviceBackup, "\(name)")
            compared += 1
        }
        #expect(compared == places.count, "the same entries on both sides")
        // The cases the backup's own classification once missed: what iOS makes in a folder of Caches and in tmp.
        for made in ["Library/Caches/a.b/Cache.db", "Library/Caches/a.b/fsCachedData/F1", "tmp/WebKit/t"] {
            let index = try #require(listed.index(ofPath: Array(made.utf8)))
            #expect(listed.entries[Int(index)].flags.contains(.systemManaged), "\(made)")
        }
        #expect(listed.evidence.decidedByDeviceBackup)
    }
}
