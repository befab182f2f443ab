import StocktakeModel

/// What extended-attribute names say about backup. Names are
/// compared as raw bytes, case-sensitively, as the file systems store them.
public enum BackupAttributes {
    /// `.xattr` for `com.apple.metadata:com_apple_backup_excludeItem`, `.legacyXattr` for
    /// `com.apple.MobileBackup` (iOS 5.0.1), each bare (macOS) or under the Linux namespaces
    /// `user.` (rsync, setfattr), `trusted.` or `osx.` (hfsplus); `.none` otherwise.
    /// Presence alone counts: writers store a bplist, a raw string, `true` or nothing as the value.
    public static func flag(forAttributeName name: UnsafeBufferPointer<UInt8>) -> ExclusionFlag {
        let start = namespacePrefixLength(name)
        if name.isEqual(to: "com.apple.metadata:com_apple_backup_excludeItem", from: start) { return .xattr }
        if name.isEqual(to: "com.apple.MobileBackup", from: start) { return .legacyXattr }
        return .none
    }

    /// Whether an attribute shows the export carried extended attributes from the Mac or device.
    /// False for names the host sets on its own files: `security.*` and `system.*` (SELinux labels,
    /// ACLs), and the bare names macOS adds by itself to files on the Mac that holds the export
    /// (`addedByMacOS`). The same names under `user.` (a Linux copy of a Mac's files, rsync -X) still
    /// count: there they travelled with the files.
    public static func isTransported(attributeName name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.isEmpty else { return false }
        if name.hasPrefix("security.") || name.hasPrefix("system.") { return false }
        for local in addedByMacOS where name.isEqual(to: local, from: 0) { return false }
        return true
    }

    /// Attributes macOS puts on files of its own accord on the Mac (Finder's info, LaunchServices' last use,
    /// privacy consent, Gatekeeper's quarantine and provenance marks), whether or not the export pipeline kept
    /// any attribute: on such a file they prove nothing about the export. Left out on purpose (still evidence):
    /// `kMDItemWhereFroms` (written by the downloading app) and `_kMDItemUserTags` (chosen tags, which travel).
    static let addedByMacOS: [StaticString] = [
        "com.apple.FinderInfo", "com.apple.lastuseddate#PS", "com.apple.macl", "com.apple.quarantine",
        "com.apple.provenance",
    ]

    /// What one entry's attribute names say together: the strongest backup flag among them, and whether
    /// any of them shows the export carried extended attributes (`isTransported`). An entry holding only
    /// names macOS adds by itself is no evidence; one that also holds a backup flag is.
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

    /// Length of a leading `user.`, `trusted.` or `osx.` namespace, or 0.
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
