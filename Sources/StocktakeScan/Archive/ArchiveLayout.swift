import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

/// Finds the container inside an archive by the folders' rules (`ContainerSource`): the archive root, else its one
/// folder (a Finder zip holds `X.xcappdata/` beside `__MACOSX/`), else that folder's one folder (one wrapping).
struct ArchiveLayout {
    /// The node recognised as the input folder (the package, the data container or the bare tree).
    let input: Int32
    /// The container root: `input` or, for `.xcappdata`, its `AppData/`.
    let root: Int32
    let layout: ContainerLayout
    let metadata: [MetadataDocument]
    let appDataInfo: PropertyListValue?
    let containerMetadata: PropertyListValue?

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
            return PathText.display(node.name) + (node.isDirectory ? "/" : "")
        }.sorted()
        throw .notAContainer(path: archivePath, found: names.isEmpty ? ["an empty archive"] : names)
    }

    /// The one folder inside `folder`, leaving out `__MACOSX/` and hidden names (`.DS_Store`); nil for several or none.
    private static func soleFolder(in folder: Int32, tree: ArchiveTree) -> Int32? {
        let visible = tree.nodes[Int(folder)].children.filter { index in
            let name = tree.nodes[Int(index)].name
            return !name.elementsEqual("__MACOSX".utf8) && name.first != UInt8(ascii: ".")
        }
        guard visible.count == 1, let only = visible.first, tree.nodes[Int(only)].isDirectory else { return nil }
        return only
    }

    private static func recognise(_ folder: Int32, tree: ArchiveTree, listing: ArchiveListing) -> ArchiveLayout? {
        func document(_ base: Int32, _ name: String, shownAs shown: String) -> MetadataDocument? {
            guard let index = tree.node(at: Array(name.utf8), from: base), !tree.nodes[Int(index)].isDirectory else {
                return nil
            }
            switch listing.metadata[tree.path(index)] {
            case .bytes(let bytes)?:
                do {
                    return MetadataDocument(path: shown, value: try PropertyListReader.parse(bytes), problem: nil)
                } catch {
                    return MetadataDocument(path: shown, value: nil, problem: error.message)
                }
            case .problem(let problem)?: return MetadataDocument(path: shown, value: nil, problem: problem)
            case nil:
                return MetadataDocument(
                    path: shown, value: nil,
                    problem: "not read: it is not a regular file, or lies too deep in the archive")
            }
        }
        func looksLikeBare(_ base: Int32) -> Bool { ContainerSource.looksLikeBareContainer { listing.kind(base, $0) } }
        let metadataName = ContainerSource.containerMetadataFile
        if let appData = tree.node(at: Array(ContainerSource.appDataFolder.utf8), from: folder, foldersOnly: true) {
            let info =
                document(folder, ContainerSource.appDataInfoFile, shownAs: ContainerSource.appDataInfoFile)
                ?? ContainerSource.missingAppDataInfo
            if info.value != nil || looksLikeBare(appData) || listing.kind(appData, metadataName) == .regularFile {
                let container = document(
                    appData, metadataName, shownAs: Paths.join(ContainerSource.appDataFolder, metadataName))
                return ArchiveLayout(
                    input: folder, root: appData, layout: .xcappdata, metadata: [info] + (container.map { [$0] } ?? []),
                    appDataInfo: info.value, containerMetadata: container?.value)
            }
        }
        if listing.kind(folder, metadataName) == .regularFile {
            let container = document(folder, metadataName, shownAs: metadataName)
            let inside = "/" + PathText.display(tree.path(folder))
            let simulator = inside.contains("/CoreSimulator/Devices/") && inside.contains("/data/Containers/Data/")
            return ArchiveLayout(
                input: folder, root: folder, layout: simulator ? .simulator : .dataContainer,
                metadata: container.map { [$0] } ?? [],
                appDataInfo: nil, containerMetadata: container?.value)
        }
        if looksLikeBare(folder) {
            return ArchiveLayout(
                input: folder, root: folder, layout: .bare, metadata: [], appDataInfo: nil, containerMetadata: nil)
        }
        return nil
    }
}
