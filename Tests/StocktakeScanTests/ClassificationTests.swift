import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// Every path gets the location, backup rule and system-managed mark the "Locations" table of docs/reports.md gives.
@Suite struct ClassificationTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let path: String
        let location: Location
        let excludedBySystem: Bool
        let systemManaged: Bool
        /// iOS backs it up (Cookies, WebKit: real device backups hold them), attributes or not.
        var backedUpBySystem = false
        var testDescription: String { path }
    }

    static let table: [Row] = [
        Row(path: "Documents/Report.pdf", location: .documents, excludedBySystem: false, systemManaged: false),
        Row(path: "Documents/Inbox/shared.pdf", location: .documents, excludedBySystem: false, systemManaged: false),
        Row(
            path: "Library/Application Support/Chats/1/a.jpg", location: .applicationSupport, excludedBySystem: false,
            systemManaged: false),
        Row(path: "Library/Caches/images/x.png", location: .caches, excludedBySystem: true, systemManaged: false),
        Row(
            path: "Library/Caches/com.example.chat/Cache.db", location: .caches, excludedBySystem: true,
            systemManaged: true),
        Row(
            path: "Library/Caches/com.example.chat/Cache.db-wal", location: .caches, excludedBySystem: true,
            systemManaged: true),
        Row(
            path: "Library/Caches/com.example.chat/fsCachedData/0A1B", location: .caches, excludedBySystem: true,
            systemManaged: true),
        Row(
            path: "Library/Caches/com.example.chat/other.bin", location: .caches, excludedBySystem: true,
            systemManaged: false),
        Row(
            path: "Library/Caches/Snapshots/com.example.chat/a.ktx", location: .caches, excludedBySystem: true,
            systemManaged: true),
        Row(path: "tmp/upload.part", location: .tmp, excludedBySystem: true, systemManaged: false),
        Row(
            path: "Library/Preferences/com.example.chat.plist", location: .preferences, excludedBySystem: false,
            systemManaged: false),
        Row(path: "Library/stray.json", location: .libraryOther, excludedBySystem: false, systemManaged: false),
        Row(path: "Library/Custom/data.bin", location: .libraryOther, excludedBySystem: false, systemManaged: false),
        Row(
            path: "Library/SplashBoard/Snapshots/s/a.ktx", location: .libraryOther, excludedBySystem: true,
            systemManaged: true),
        Row(
            path: "Library/Saved Application State/x.savedState/data.data", location: .libraryOther,
            excludedBySystem: true, systemManaged: true),
        Row(
            path: "Library/SyncedPreferences/com.example.chat.plist", location: .libraryOther, excludedBySystem: false,
            systemManaged: true),
        Row(
            path: "Library/Cookies/com.example.chat.binarycookies", location: .libraryOther, excludedBySystem: false,
            systemManaged: true, backedUpBySystem: true),
        Row(
            path: "Library/HTTPStorages/com.example.chat/httpstorages.sqlite", location: .libraryOther,
            excludedBySystem: false, systemManaged: true),
        Row(
            path: "Library/WebKit/com.example.chat/WebsiteData/x", location: .libraryOther, excludedBySystem: false,
            systemManaged: true, backedUpBySystem: true),
        Row(
            path: "Library/WebKit/WebsiteData/IndexedDB/v1/x", location: .libraryOther, excludedBySystem: false,
            systemManaged: true, backedUpBySystem: true),
        Row(
            path: "Library/LanguageModeling/dynamic-text.dat", location: .libraryOther, excludedBySystem: false,
            systemManaged: true),
        Row(
            path: "Library/com.apple.iTunesStore/downloads.sqlitedb", location: .libraryOther, excludedBySystem: false,
            systemManaged: true),
        Row(
            path: "Library/Caches/com.apple.dyld/Session.dyld4", location: .caches, excludedBySystem: true,
            systemManaged: true),
        Row(
            path: "Library/Caches/WebKit/NetworkCache/x", location: .caches, excludedBySystem: true, systemManaged: true
        ),
        Row(
            path: "Library/Caches/com.example.chat/com.apple.metal/functions.data", location: .caches,
            excludedBySystem: true, systemManaged: true),
        Row(path: "tmp/WebKit/x.tmp", location: .tmp, excludedBySystem: true, systemManaged: true),
        Row(path: "StoreKit/receipt", location: .other, excludedBySystem: true, systemManaged: true),
        Row(
            path: "SystemData/com.apple.chrono/timeline", location: .systemData, excludedBySystem: true,
            systemManaged: true),
        Row(
            path: ".com.apple.mobile_container_manager.metadata.plist", location: .other, excludedBySystem: true,
            systemManaged: true),
        Row(path: "CloudKit/cloudd_db/db", location: .other, excludedBySystem: true, systemManaged: false),
        Row(path: "GeoJSON/route.json", location: .other, excludedBySystem: false, systemManaged: false),
        Row(path: "root-file.txt", location: .other, excludedBySystem: true, systemManaged: false),
    ]

    static let inventory: Inventory = {
        let tree = try! TemporaryTree("classify")
        for row in table { try! tree.write(row.path, string: "x") }
        return try! InventoryScanner.scan(root: tree.root)
    }()

    @Test(arguments: table)
    func classifies(_ row: Row) throws {
        let inventory = Self.inventory
        let index = try #require(inventory.index(ofPath: Array(row.path.utf8)))
        let entry = inventory.entries[Int(index)]
        #expect(entry.location == row.location)
        #expect(entry.flags.contains(.systemManaged) == row.systemManaged)
        if row.excludedBySystem {
            #expect(entry.backup == .excludedBySystem)
            #expect(entry.evidence == .location)
        } else if row.backedUpBySystem {
            #expect(entry.backup == .included)
            #expect(entry.evidence == .systemLocation)
        } else {
            // No attributes anywhere in this tree: a backed-up place without a flag is unknown, never included.
            #expect(entry.backup == .unknown)
            #expect(entry.evidence == .noEvidence)
        }
    }

    @Test func foldersOfStandardPlacesCarryTheirLocation() throws {
        let inventory = Self.inventory
        for (path, location) in [
            ("Library/Caches", Location.caches), ("Library", .libraryOther), ("tmp", .tmp), ("Documents", .documents),
        ] {
            let index = try #require(inventory.index(ofPath: Array(path.utf8)))
            #expect(inventory.entries[Int(index)].location == location, "\(path)")
        }
    }
}
