// TEMPORARY: stand-ins until the real implementations land from their branches.
import StocktakeModel
#if canImport(Glibc)
import Glibc
#endif
import CStocktakeSystem

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
