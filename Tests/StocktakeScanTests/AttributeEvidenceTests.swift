import StocktakeModel
import StocktakeScan
import Testing

/// Which attribute names show the export carried extended attributes: not the ones macOS puts on files of its own
/// accord on the Mac holding the export.
@Suite struct AttributeEvidenceTests {
    static let addedByMacOS = [
        "com.apple.FinderInfo", "com.apple.lastuseddate#PS", "com.apple.macl", "com.apple.quarantine",
        "com.apple.provenance",
    ]

    static func reading(_ names: [String]) -> (flag: ExclusionFlag, transported: Bool) {
        BackupAttributes.reading(attributeNames: names.map { Array($0.utf8) })
    }

    static func transported(_ name: String) -> Bool {
        Array(name.utf8).withUnsafeBufferPointer { BackupAttributes.isTransported(attributeName: $0) }
    }

    @Test func namesMacOSAddsByItselfAreNoEvidence() {
        for name in Self.addedByMacOS {
            #expect(!Self.transported(name), "\(name)")
        }
    }

    @Test func aFileHoldingOnlyThoseIsNoEvidence() {
        let reading = Self.reading(Self.addedByMacOS)
        #expect(!reading.transported)
        #expect(reading.flag == .none)
        #expect(!Self.reading([]).transported)
    }

    @Test func aBackupFlagBesideThemStillIs() {
        let reading = Self.reading(Self.addedByMacOS + ["com.apple.metadata:com_apple_backup_excludeItem"])
        #expect(reading.transported)
        #expect(reading.flag == .xattr)
        let legacy = Self.reading(["com.apple.quarantine", "com.apple.MobileBackup"])
        #expect(legacy.transported)
        #expect(legacy.flag == .legacyXattr)
    }

    /// Under `user.` they came over with a Mac's files (rsync -X to Linux): there they did travel.
    @Test func theSameNamesCopiedToLinuxStillCount() {
        for name in Self.addedByMacOS {
            #expect(Self.transported("user." + name), "\(name)")
        }
    }

    /// Names apps (not the system) write stay evidence, as do near misses of the system's names.
    @Test func namesAppsWriteStillCount() {
        for name in [
            "com.apple.metadata:kMDItemWhereFroms", "com.apple.metadata:_kMDItemUserTags", "com.apple.ResourceFork",
            "com.apple.TextEncoding", "com.apple.FinderInfo2", "com.apple.lastuseddate", "com.apple.macl ",
            "com.apple.finderinfo",
        ] {
            #expect(Self.transported(name), "\(name)")
        }
        #expect(Self.reading(["com.apple.quarantine", "com.apple.metadata:kMDItemWhereFroms"]).transported)
    }
}
