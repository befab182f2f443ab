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
    /// ACLs), and bare `com.apple.provenance` / `com.apple.quarantine`, which macOS adds locally.
    public static func isTransported(attributeName name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.isEmpty else { return false }
        if name.hasPrefix("security.") || name.hasPrefix("system.") { return false }
        if name.isEqual(to: "com.apple.provenance", from: 0) || name.isEqual(to: "com.apple.quarantine", from: 0) {
            return false
        }
        return true
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
