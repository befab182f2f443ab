import CStocktakeSystem
import Foundation

extension TemporaryTree {
    /// The 61-byte binary plist macOS stores as the backup-exclusion attribute's value.
    package static let backupExclusionValue: [UInt8] = Array(
        "62706c69737430305f1011636f6d2e6170706c652e6261636b75706408000000000000010100000000000000010000000000000000000000000000001c"
            .chunked2.map { UInt8($0, radix: 16)! })

    /// Sets an extended attribute on an entry (Linux keeps Apple's names under `user.`, as rsync does).
    package func setAttribute(_ relativePath: String, name: String, value: [UInt8]) throws {
        #if os(Linux)
            let result = setxattr(path(relativePath), name, value, value.count, 0)
        #else
            let result = setxattr(path(relativePath), name, value, value.count, 0, 0)
        #endif
        guard result == 0 else {
            throw Failure(description: "setxattr \(name) on \(relativePath) failed: errno \(errno)")
        }
    }

    /// Marks an entry excluded from backup the way a Mac-to-Linux rsync -X leaves it.
    package func excludeFromBackup(_ relativePath: String) throws {
        #if os(Linux)
            try setAttribute(
                relativePath, name: "user.com.apple.metadata:com_apple_backup_excludeItem",
                value: Self.backupExclusionValue)
        #else
            try setAttribute(
                relativePath, name: "com.apple.metadata:com_apple_backup_excludeItem", value: Self.backupExclusionValue)
        #endif
    }
}

extension String {
    fileprivate var chunked2: [String] {
        stride(from: 0, to: count, by: 2).map { String(Array(self)[$0..<Swift.min($0 + 2, count)]) }
    }
}
