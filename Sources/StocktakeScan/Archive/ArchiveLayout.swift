import StocktakeModel
import StocktakePropertyLists

/// Finds the container inside an archive by the folders' rules (`ContainerSource`): the archive root, else its one
/// folder (a Finder zip holds `X.xcappdata/` beside `__MACOSX/`), else that folder's one folder (one wrapping).
struct ArchiveLayout {
    /// The node recognised as the input folder (the package, the data container or the bare tree).
    let input: Int32
    /// The container root: `input` or, for `.xcappdata`, its `AppData/`.
    let root: Int32
    let found: ContainerSource.Recognised

    static func find(tree: ArchiveTree, listing: ArchiveListing, archivePath: String) throws(ScanError) -> ArchiveLayout
    {
        var candidate: Int32? = 0
        for _ in 0..<3 {
            guard let folder = candidate else { break }
            if let found = recognise(folder, tree: tree, listing: listing) { return found }
            candidate = soleFolder(in: folder, tree: tree)
        }
        let names = tree.nodes[0].children.map { index in
            let node = tree.nodes[Int(index)]
            return PathText.display(tree.name(index)) + (node.isDirectory ? "/" : "")
        }.sorted()
        throw .notAContainer(path: archivePath, found: names.isEmpty ? ["an empty archive"] : names)
    }

    /// The one folder inside `folder`, leaving out `__MACOSX/` and hidden names (`.DS_Store`); nil for several or none.
    private static func soleFolder(in folder: Int32, tree: ArchiveTree) -> Int32? {
        let visible = tree.nodes[Int(folder)].children.filter { index in
            let name = tree.name(index)
            return !name.elementsEqual("__MACOSX".utf8) && name.first != UInt8(ascii: ".")
        }
        guard visible.count == 1, let only = visible.first, tree.nodes[Int(only)].isDirectory else { return nil }
        return only
    }

    private static func recognise(_ folder: Int32, tree: ArchiveTree, listing: ArchiveListing) -> ArchiveLayout? {
        func document(_ relative: String) -> MetadataDocument? {
            guard let index = tree.node(at: Array(relative.utf8), from: folder), !tree.nodes[Int(index)].isDirectory
            else { return nil }
            switch listing.metadata[tree.path(index)] {
            case .bytes(let bytes)?:
                do {
                    return MetadataDocument(path: relative, value: try PropertyListReader.parse(bytes), problem: nil)
                } catch {
                    return MetadataDocument(path: relative, value: nil, problem: error.message)
                }
            case .problem(let problem)?: return MetadataDocument(path: relative, value: nil, problem: problem)
            case nil:
                return MetadataDocument(
                    path: relative, value: nil,
                    problem: "not read: it is not a regular file, or lies too deep in the archive")
            }
        }
        let inside = "/" + PathText.display(tree.path(folder))
        let found = ContainerSource.recognise(
            kind: { listing.kind(folder, $0) }, document: document,
            isSimulator: { inside.contains("/CoreSimulator/Devices/") && inside.contains("/data/Containers/Data/") })
        guard let found else { return nil }
        let appData =
            found.layout == .xcappdata ? tree.node(at: Array(ContainerSource.appDataFolder.utf8), from: folder) : nil
        return ArchiveLayout(input: folder, root: appData ?? folder, found: found)
    }
}
