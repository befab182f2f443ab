import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import StocktakeScan

/// The audit use case: identify the container, read the companions, prepare the output folder, walk,
/// hold the inventory to the policy, write every report.
/// Never prints and never exits: the CLI does that with the result or the error.
public enum Audit {
    public static func run(_ request: AuditRequest) throws(AuditError) -> AuditResult {
        let container: ContainerDescription
        do {
            container = try ContainerSource.identify(path: request.inputPath, bundleIdentifier: request.bundleIdentifier)
        } catch {
            throw .input(error)
        }
        var appBundle: AppBundleInfo?
        if let path = request.appBundlePath { appBundle = try Companions.appBundle(at: path, options: request.scan) }
        var appGroups: [AppGroupInfo] = []
        for path in request.appGroupPaths { appGroups.append(try Companions.appGroup(at: path, options: request.scan)) }
        // Before the walk: a bad --output should fail in a second, not after scanning a million files.
        let folder = try OutputFolder.prepare(request: request, container: container)
        let inventory: Inventory
        do {
            inventory = try InventoryScanner.scan(root: container.rootPath, options: request.scan)
        } catch {
            OutputFolder.removeIfEmpty(folder)
            throw .input(error)
        }
        let exposed = appBundle.map { $0.fileSharingEnabled || $0.opensDocumentsInPlace }
        let duplicates = findDuplicates(in: inventory, root: container.rootPath, request: request)
        let findings = request.policy.evaluate(PolicyContext(inventory: inventory, documentsExposed: exposed, duplicates: duplicates))
        let report = Report(
            tool: request.tool, generatedAt: request.now, container: container, inventory: inventory,
            appBundle: appBundle, appGroups: appGroups, findings: findings)
        var written: [String] = []
        do {
            for format in request.formats {
                let path = folder + "/" + format.fileName
                try AtomicFile.write(to: path) { write in try format.render(report, write) }
                written.append(path)
            }
        } catch {
            // A run leaves all its reports or none: take back the ones already written.
            for path in written { unlink(path) }
            OutputFolder.removeIfEmpty(folder)
            throw .output((error as? OutputError)?.description ?? "cannot write reports into \(folder): \(error)")
        }
        return AuditResult(report: report, outputDirectory: folder, writtenFiles: written)
    }

    /// Reads file contents only when the policy asks for duplicates. Files that could not be read are left
    /// out of the sets (the inventory is already frozen, so they are not listed as issues), and a root that
    /// can no longer be opened means no duplicate findings rather than a failed audit.
    private static func findDuplicates(in inventory: Inventory, root: String, request: AuditRequest) -> [DuplicateSet] {
        guard let minimumBytes = request.policy.duplicateMinimumBytes else { return [] }
        let finder = DuplicateFinder(rootPath: root, minimumBytes: minimumBytes, threads: request.scan.threads)
        guard let search = try? finder.find(in: inventory) else { return [] }
        return search.sets.map { DuplicateSet(members: $0.members, size: $0.size) }
    }
}
