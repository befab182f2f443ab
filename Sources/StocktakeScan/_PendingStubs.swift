// TEMPORARY: stand-ins until the real implementations land from their branches.
import StocktakeModel
#if canImport(Glibc)
import Glibc
#endif
import CStocktakeSystem

enum ContentSniffer {
    static let prefixLength = 96
    static func kind(name: UnsafeBufferPointer<UInt8>, size: Int64) -> ContentKind? { size == 0 ? .empty : nil }
    static func kind(prefix: UnsafeRawBufferPointer, name: UnsafeBufferPointer<UInt8>) -> ContentKind {
        prefix.starts(with: "SQLite format 3".utf8) ? .sqlite : .unknown
    }
}
enum AppleDouble {
    static func hasHeader(_ prefix: UnsafeRawBufferPointer) -> Bool { prefix.starts(with: [0, 5, 0x16, 7]) }
    static func attributeNames(in bytes: UnsafeRawBufferPointer) throws -> [String] { [] }
}
enum BackupAttributes {
    static func flag(forAttributeName name: UnsafeBufferPointer<UInt8>) -> ExclusionFlag {
        let s = String(decoding: name, as: UTF8.self)
        if s.hasSuffix("com.apple.metadata:com_apple_backup_excludeItem") { return .xattr }
        if s.hasSuffix("com.apple.MobileBackup") { return .legacyXattr }
        return .none
    }
    static func isTransported(attributeName name: UnsafeBufferPointer<UInt8>) -> Bool { !name.starts(with: "security.".utf8) }
}
enum ExtendedAttributes {
    static func names(atPath path: UnsafePointer<CChar>) throws -> [[UInt8]] {
        let size = llistxattr(path, nil, 0)
        guard size > 0 else { return [] }
        var buffer = [CChar](repeating: 0, count: size)
        let n = llistxattr(path, &buffer, size)
        guard n > 0 else { return [] }
        return buffer[0..<n].split(separator: 0).map { $0.map { UInt8(bitPattern: $0) } }
    }
}
public enum ContainerSource {
    public static func identify(path: String, bundleIdentifier override: String? = nil) throws(ScanError) -> ContainerDescription {
        let appData = path + "/AppData"
        var isDir = stat()
        let root = lstat(appData, &isDir) == 0 ? appData : path
        return ContainerDescription(inputPath: path, rootPath: root, layout: .bare, bundleIdentifier: override ?? "com.example.chat", bundleIdentifierSource: .option, metadata: [])
    }
}
public struct PropertyListError: Error, Sendable, CustomStringConvertible { public var description: String { "stub" } }
public enum PropertyListReader {
    public static func read(contentsOfFile path: String, maxBytes: Int = 8 << 20) throws(PropertyListError) -> PropertyListValue { throw PropertyListError() }
}
