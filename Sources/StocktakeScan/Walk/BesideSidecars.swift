import StocktakeContent
import StocktakeFiles
import StocktakeModel

/// An unzipped Finder zip leaves `__MACOSX/` beside the package, outside the folder the user names; its `._name`
/// sidecars are the only record of the backup flags: `__MACOSX/X.xcappdata/AppData/Documents/._a` describes
/// `Documents/a` below the root `X.xcappdata/AppData`.
struct BesideSidecars {
    /// Flags by target path relative to the container root, as the walk's `__MACOSX/` flags are.
    var flags: [(target: [UInt8], flag: ExclusionFlag)] = []
    /// Sidecars that parsed: evidence that the export carried attributes.
    var sidecars = 0
    var issues: [ScanIssue] = []

    /// Looks for `__MACOSX/` one and two levels above the root (beside the root, beside the package).
    static func read(root: String, maxDepth: Int) -> BesideSidecars {
        var result = BesideSidecars()
        let components = root.split(separator: "/").map(String.init)
        for levels in 1...2 where components.count > levels {
            let ancestor = "/" + components.dropLast(levels).joined(separator: "/")
            let mirror =
                (ancestor == "/" ? "" : ancestor) + "/__MACOSX/" + components.suffix(levels).joined(separator: "/")
            guard FileKind(path: mirror) == .directory else { continue }
            let buffer = UnsafeMutableRawBufferPointer.allocate(
                byteCount: AppleDouble.attributeHeaderLimit, alignment: 8)
            defer { buffer.deallocate() }
            result.read(folder: mirror, relative: [], depth: 0, maxDepth: maxDepth, buffer: buffer)
            return result
        }
        return result
    }

    private mutating func read(
        folder: String, relative: [UInt8], depth: Int, maxDepth: Int, buffer: UnsafeMutableRawBufferPointer
    ) {
        guard depth <= maxDepth, let listing = try? DirectoryListing.read(folder, limit: 1_000_000) else { return }
        for entry in listing.entries {
            let path = Paths.join(folder, entry.name)
            let name = Array(entry.name.utf8)
            if entry.kind == .directory {
                read(
                    folder: path, relative: joined(relative, name), depth: depth + 1, maxDepth: maxDepth, buffer: buffer
                )
                continue
            }
            guard entry.kind == .regularFile, name.count > 2, name.starts(with: "._".utf8) else { continue }
            let target = joined(relative, name.dropFirst(2))
            var options = RegularFile.Options.insideContainer(maxBytes: nil)
            guard let file = try? RegularFile.open(path, options: &options) else { continue }
            do {
                guard let flag = try AppleDouble.flag(of: file, buffer: buffer) else { continue }
                sidecars += 1
                if flag != .none { flags.append((target, .appleDouble)) }
            } catch {
                let folder = VisibleText.render(folder, as: .message)
                let detail = "its AppleDouble sidecar in \(folder) not understood: \(error)"
                issues.append(ScanIssue(path: target, reason: .malformedMetadata, detail: detail))
            }
        }
    }
}
