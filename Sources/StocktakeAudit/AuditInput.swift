import StocktakeModel
import StocktakeScan

/// What an audit reads: a container folder, identified first and walked once the output folder is ready; or an
/// archive, read in place, whose single pass both finds the container and lists it.
enum AuditInput {
    case folder(ContainerDescription)
    case archive(ArchiveInput)

    static func open(_ request: AuditRequest) throws(AuditError) -> AuditInput {
        do {
            if ArchiveInput.isArchiveCandidate(request.inputPath) {
                return .archive(try ArchiveInput.read(path: request.inputPath, bundleIdentifier: request.bundleIdentifier, options: request.scan))
            }
            return .folder(try ContainerSource.identify(path: request.inputPath, bundleIdentifier: request.bundleIdentifier))
        } catch {
            throw .input(error)
        }
    }

    var container: ContainerDescription {
        switch self {
        case .folder(let container): container
        case .archive(let archive): archive.container
        }
    }

    func inventory(_ options: ScanOptions) throws(ScanError) -> Inventory {
        switch self {
        case .folder(let container): try InventoryScanner.scan(root: container.rootPath, options: options)
        case .archive(let archive): archive.inventory
        }
    }

    /// Files of equal content: read from the folder, or by a second pass over the archive.
    func duplicates(in inventory: Inventory, minimumBytes: Int64, threads: Int) throws(ScanError) -> DuplicateSearch {
        switch self {
        case .folder(let container):
            try DuplicateFinder(rootPath: container.rootPath, minimumBytes: minimumBytes, threads: threads).find(in: inventory)
        case .archive(let archive): try archive.findDuplicates(minimumBytes: minimumBytes)
        }
    }
}
