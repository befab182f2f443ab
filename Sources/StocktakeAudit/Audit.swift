import Foundation
import StocktakeModel
import StocktakeReport
import StocktakeScan

/// The audit use case: identify the container, walk it, read the companions, write every report.
/// Never prints and never exits: the CLI does that with the result or the error.
public enum Audit {
    public static func run(_ request: AuditRequest) throws(AuditError) -> AuditResult {
        let container: ContainerDescription
        let inventory: Inventory
        do {
            container = try ContainerSource.identify(path: request.inputPath, bundleIdentifier: request.bundleIdentifier)
            inventory = try InventoryScanner.scan(root: container.rootPath, options: request.scan)
        } catch {
            throw .input(error)
        }
        var appBundle: AppBundleInfo?
        if let path = request.appBundlePath { appBundle = try Companions.appBundle(at: path, options: request.scan) }
        var appGroups: [AppGroupInfo] = []
        for path in request.appGroupPaths { appGroups.append(try Companions.appGroup(at: path, options: request.scan)) }
        let report = Report(
            tool: request.tool, generatedAt: request.now, container: container, inventory: inventory,
            appBundle: appBundle, appGroups: appGroups)
        let folder = try OutputFolder.prepare(request: request, container: container)
        var written: [String] = []
        do {
            for format in request.formats {
                let path = folder + "/" + format.fileName
                try AtomicFile.write(to: path) { write in try format.render(report, write) }
                written.append(path)
            }
        } catch {
            OutputFolder.removeIfEmpty(folder)
            throw .output((error as? OutputError)?.description ?? "cannot write reports into \(folder): \(error)")
        }
        return AuditResult(report: report, outputDirectory: folder, writtenFiles: written)
    }
}
