import StocktakeModel

/// What extended-attribute names say about backup, compared as raw bytes, case-sensitively, as file systems store them.
public enum BackupAttributes {
    /// `.xattr` for `com.apple.metadata:com_apple_backup_excludeItem`, `.legacyXattr` for `com.apple.MobileBackup`
    /// (iOS 5.0.1), bare (macOS) or under `user.` (rsync), `trusted.` or `osx.` (hfsplus). Presence alone counts:
    /// writers store a bplist, a raw string, `true` or nothing as the value.
    public static func flag(forAttributeName name: UnsafeBufferPointer<UInt8>) -> ExclusionFlag {
        let start = namespacePrefixLength(name)
        if name.isEqual(to: "com.apple.metadata:com_apple_backup_excludeItem", from: start) { return .xattr }
        if name.isEqual(to: "com.apple.MobileBackup", from: start) { return .legacyXattr }
        return .none
    }

    /// Whether an attribute shows the export carried extended attributes from the Mac or device: not `security.*`,
    /// `system.*` (SELinux, ACLs) or the bare names macOS adds by itself (`addedByMacOS`); under `user.` (a Linux
    /// copy, rsync -X) those did travel with the files.
    public static func isTransported(attributeName name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.isEmpty else { return false }
        if name.hasPrefix("security.") || name.hasPrefix("system.") { return false }
        for local in addedByMacOS where name.isEqual(to: local, from: 0) { return false }
        return true
    }

    /// Attributes macOS puts on files of its own accord (Finder info, last use, privacy consent, quarantine,
    /// provenance): they prove nothing about the export. Still evidence: `kMDItemWhereFroms`, `_kMDItemUserTags`.
    static let addedByMacOS: [StaticString] = [
        "com.apple.FinderInfo", "com.apple.lastuseddate#PS", "com.apple.macl", "com.apple.quarantine",
        "com.apple.provenance",
    ]

    /// The strongest backup flag among one entry's attribute names, and whether any of them `isTransported`.
    public static func reading(attributeNames names: [[UInt8]]) -> (flag: ExclusionFlag, transported: Bool) {
        var flag = ExclusionFlag.none
        var transported = false
        for name in names {
            name.withUnsafeBufferPointer { bytes in
                if !transported && isTransported(attributeName: bytes) { transported = true }
                flag = flag.strongest(with: Self.flag(forAttributeName: bytes))
            }
        }
        return (flag, transported)
    }

    private static func namespacePrefixLength(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        if name.hasPrefix("user.") { return 5 }
        if name.hasPrefix("trusted.") { return 8 }
        if name.hasPrefix("osx.") { return 4 }
        return 0
    }
}

extension ExclusionFlag {
    /// The stronger of two flags found on one entry: the current attribute beats the legacy one.
    func strongest(with found: ExclusionFlag) -> ExclusionFlag {
        found == .xattr || (found == .legacyXattr && self == .none) ? found : self
    }
}
