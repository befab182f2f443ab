import StocktakeModel
import Testing

/// The one classifier: a path placed as the walk places it (the contract's location table, docs/reports.md).
@Suite struct ZoneTests {
    private func zone(_ path: String, directory: Bool = false) -> Zone {
        Zone.of(path: path.utf8, isDirectory: directory)
    }

    @Test func locationsOfPathsFollowTheContractTable() {
        #expect(zone("Documents/a/b.txt").location == .documents)
        #expect(zone("Library/Application Support/x").location == .applicationSupport)
        #expect(zone("Library/Caches/x/y").location == .caches)
        #expect(zone("Library/Preferences/a.plist").location == .preferences)
        #expect(zone("Library/SplashBoard/x").location == .libraryOther)
        #expect(zone("Library/Sounds/chime.caf").location == .libraryOther)
        #expect(zone("tmp/x").location == .tmp)
        #expect(zone("SystemData/x").location == .systemData)
        #expect(zone("CloudKit/x").location == .other)
        #expect(zone("notes.txt").location == .other)
    }

    @Test func backupByPlace() {
        // Never backed up: Caches, tmp, SystemData, the rest of the root, what iOS makes and never backs up.
        for path in [
            "Library/Caches/a", "tmp/a", "SystemData/a", "notes.txt", "Library/SplashBoard/a",
            ".com.apple.mobile_container_manager.metadata.plist",
        ] {
            #expect(zone(path).excludedBySystem, "\(path)")
        }
        for path in ["Documents/a", "Library/Application Support/a", "Library/Preferences/a", "Library/a", "GeoJSON/a"]
        {
            #expect(!zone(path).excludedBySystem, "\(path)")
        }
        #expect(zone("Library/Cookies/Cookies.binarycookies").backedUpBySystem)
        #expect(zone("Library/Cookies/Cookies.binarycookies").systemManaged)
        #expect(!zone("Library/Caches/Images/a.png").systemManaged)
        #expect(zone("Library/Caches/com.example.app/Cache.db").systemManaged)
        #expect(zone("__MACOSX/Documents/._a").transport)
    }

    @Test func kindsByName() {
        func kind(_ name: String) -> ContentKind? { Array(name.utf8).withUnsafeBufferPointer { ContentKind.named($0) } }
        #expect(kind("Model.SQLITE") == .sqlite)
        #expect(kind("Model.sqlite-wal") == .sqliteWAL)
        #expect(kind("._Model.sqlite") == .appleDouble)
        #expect(kind("Cookies.binarycookies") == .binaryCookies)
        // The content decides: a property list is binary or XML, an extension-less name anything.
        #expect(kind("com.example.app.plist") == nil)
        #expect(kind("blob") == nil)
    }
}
