import StocktakeModel

/// A small made-up container with every location, hostile names and hostile metadata, for the report tests
/// (golden file, escaping, browser). The numbers are fixed so reports of it are byte-for-byte stable.
package enum SyntheticContainer {
    /// A file name that would run script (changing the document title) if a writer failed to escape it.
    package static let hostileImageName = "<img src=x onerror=document.title='pwned'>.jpg"
    /// A name with quotes, an ampersand and a newline.
    package static let quotedName = "a \"quoted\" & 'single'\nline.txt"
    /// A name whose right-to-left override would make it read as `invoiceexe.pdf`.
    package static let bidiName = "invoice\u{202E}fdp.exe"
    /// Raw bytes that are not UTF-8: `f`, 0xFF, 0xFE, `.db`.
    package static let nonUTF8Name: [UInt8] = [0x66, 0xFF, 0xFE, 0x2E, 0x64, 0x62]
    /// A metadata value that tries to close the script element and open another.
    package static let hostileMetadataValue = "</script><script>document.title='pwned'</script>"
    /// A folder name that tries to inject an SVG with an onload handler.
    package static let hostileFolderName = "<svg onload=document.title='pwned'>"
    /// 2026-11-21T12:00:00Z.
    package static let generatedAtSecondsSince1970: Double = 1_795_262_400
    package static let bundleIdentifier = "com.example.stocktake-demo"

    package static func inventory() -> Inventory {
        var builder = InventoryBuilder()
        // Documents: what the user sees (backed up).
        builder.add("Documents/Projects/Alpha/model.sqlite", apparentBytes: 5_200_000, flags: .hardLinked)
        builder.add(
            "Documents/Projects/Alpha/model copy.sqlite", apparentBytes: 5_200_000,
            flags: [.hardLinked, .hardLinkDuplicate])
        builder.add("Documents/Projects/Alpha/model.sqlite-wal", apparentBytes: 812_345)
        builder.add("Documents/Projects/Beta/cover.jpg", apparentBytes: 1_250_000)
        // Exports and Thumbnails carry the exclusion xattr themselves (the two flags in `evidence`).
        builder.add("Documents/Exports", type: .directory, backup: .excluded, evidence: .xattr)
        builder.add("Documents/Exports/report.pdf", apparentBytes: 2_400_000)
        builder.add("Documents/Exports/sparse.bin", apparentBytes: 10_000_000, allocatedBytes: 65_536, flags: .sparse)
        builder.add("Documents/" + hostileImageName, apparentBytes: 90_000)
        builder.add("Documents/" + quotedName, apparentBytes: 1_234)
        builder.add("Documents/" + bidiName, apparentBytes: 3_000)
        builder.add(pathBytes: Array("Documents/".utf8) + nonUTF8Name, apparentBytes: 40_000, kind: .sqlite)
        builder.add("Documents/._model.sqlite", apparentBytes: 4_096, kind: .appleDouble, flags: .transportArtefact)
        builder.add("Documents/latest", type: .symlink, apparentBytes: 12, allocatedBytes: 0, symlinkTarget: "../tmp/x")
        builder.add("Documents/Inbox", type: .directory)
        // Application Support: hidden persistent data, with many small thumbnails to sum.
        builder.add("Library/Application Support/Store/default.store", apparentBytes: 3_400_000, kind: .sqlite)
        builder.add(
            "Library/Application Support/Store/default.store-wal", apparentBytes: 420_000, kind: .sqliteWAL,
            backup: .included, evidence: .noFlag)
        builder.add("Library/Application Support/Thumbnails", type: .directory, backup: .excluded, evidence: .xattr)
        for i in 0..<20 {
            builder.add(
                "Library/Application Support/Thumbnails/thumb-\(i < 10 ? "0" : "")\(i).png",
                apparentBytes: 9_000 + Int64(i) * 700)
        }
        builder.add(
            "Library/Application Support/" + hostileFolderName + "/notes.json", apparentBytes: 150_000,
            backup: .included, evidence: .noFlag)
        // Caches and tmp: purgeable, never backed up.
        builder.add("Library/Caches/" + bundleIdentifier + "/Cache.db", apparentBytes: 2_100_000)
        for name in ["3F2A", "77B0", "C1D9"] {
            builder.add("Library/Caches/" + bundleIdentifier + "/fsCachedData/" + name, apparentBytes: 310_000)
        }
        builder.add("Library/Caches/Images/avatar-large.heic", apparentBytes: 640_000)
        builder.add("tmp/download-1.partial", apparentBytes: 1_500_000)
        builder.add("tmp/(A Document Being Saved By Demo)/draft.json", apparentBytes: 24_000)
        // Preferences, the rest of Library, SystemData, and the container root.
        builder.add("Library/Preferences/" + bundleIdentifier + ".plist", apparentBytes: 4_000, kind: .binaryPlist)
        builder.add("Library/SplashBoard/Snapshots/sceneID-default/launch@2x.png", apparentBytes: 600_000)
        builder.add("Library/Cookies/Cookies.binarycookies", apparentBytes: 800)
        builder.add("SystemData/com.apple.SafariViewService/Library/WebKit/data.bin", apparentBytes: 10_000)
        builder.add(".com.apple.mobile_container_manager.metadata.plist", apparentBytes: 600, kind: .binaryPlist)
        builder.add("Library/Application Support/empty.lock", apparentBytes: 0)
        return builder.build(issues: issues, evidence: evidence)
    }

    package static let evidence = ExportEvidence(
        entriesWithAttributes: 7, appleDoubleSidecars: 1, flaggedByXattr: 2, flaggedByLegacyXattr: 0,
        flaggedByAppleDouble: 0,
        declaredByUser: false)

    package static let issues: [ScanIssue] = [
        ScanIssue(
            path: Array("Library/\(hostileFolderName)".utf8), reason: .permissionDenied,
            detail: "could not list the folder: Permission denied (EACCES) \(hostileMetadataValue)"),
        ScanIssue(path: Array("tmp/vanished.tmp".utf8), reason: .vanished, detail: "removed while the audit ran"),
        ScanIssue(path: Array("Documents/".utf8) + nonUTF8Name, reason: .unreadable, detail: "read failed & gave up"),
    ]

    package static func description() -> ContainerDescription {
        let appDataInfo: PropertyListValue = .dictionary([
            "CFBundleIdentifier": .string(bundleIdentifier),
            "XCExecutableVersion": .string("2.4.1 (381)"),
            "DeviceName": .string("Test \"iPhone\" & <friends>"),
            "Hostile</dt><script>document.title='pwned'</script>": .string(hostileMetadataValue),
            "DownloadDate": .date(730_974_600),
            "Architectures": .array([.string("arm64"), .string("arm64e")]),
            "Nested": .dictionary([
                "Count": .integer(42), "Ratio": .real(0.25), "Enabled": .bool(true),
                "Token": .data([0xDE, 0xAD, 0xBE, 0xEF]),
                "Ref": .uid(7), "Multiline": .string("first line\nsecond line"),
            ]),
        ])
        return ContainerDescription(
            inputPath: "/exports/Demo \"<i>x</i>\" & co.xcappdata",
            rootPath: "/exports/Demo \"<i>x</i>\" & co.xcappdata/AppData",
            layout: .xcappdata, bundleIdentifier: bundleIdentifier, bundleIdentifierSource: .appDataInfo,
            metadata: [
                MetadataDocument(path: "AppDataInfo.plist", value: appDataInfo, problem: nil),
                MetadataDocument(
                    path: "AppData/.com.apple.mobile_container_manager.metadata.plist", value: nil,
                    problem: "binary plist truncated at offset 42 <unexpected end>"),
            ])
    }
}
