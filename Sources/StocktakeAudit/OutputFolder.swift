import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// Chooses and creates the folder the reports go into, and refuses any folder inside the audited tree.
enum OutputFolder {
    /// The folder, created, with the temporaries of earlier killed runs removed.
    static func prepare(request: AuditRequest, container: ContainerDescription) throws(AuditError) -> String {
        // Resolved before the check and used for writing, so that the check and the writes cannot disagree.
        var folder = ResolvedPath.of(
            request.outputDirectory
                ?? "Reports/\(ReportPaths.appFolderName(container.bundleIdentifier))/\(ReportDates.folderName(request.now))"
        )
        // The baseline file is output too: never into a tree the audit reads (a device set is never written).
        let outputs =
            [(folder, "reports", "--output")]
            + (request.writeBaselinePath.map { [(ResolvedPath.of($0), "the baseline", "--write-baseline")] } ?? [])
        for (output, what, option) in outputs {
            for (audited, tree) in readTrees(request: request, container: container)
            where ResolvedPath.isInside(output, audited) {
                throw .output(
                    "refusing to write \(what) to \(output): it is inside the audited \(tree) \(audited); choose another \(option)"
                )
            }
        }
        do {
            let isDefault = request.outputDirectory == nil
            try FileManager.default.createDirectory(
                atPath: isDefault ? Paths.parent(of: folder) : folder, withIntermediateDirectories: true)
            if isDefault { folder = try claimFresh(folder) }
        } catch let error as AuditError {
            throw error
        } catch {
            throw .output("cannot create the output folder \(folder): \(FileSystemReason.of(error))")
        }
        guard access(folder, W_OK) == 0 else {
            throw .output("cannot write into the output folder \(folder): \(SystemError.currentText)")
        }
        for case .file(let name) in ReportFormat.allCases.map(\.destination) {
            AtomicFile.removeLeftovers(of: Paths.join(folder, name))
        }
        return folder
    }

    /// Every tree the audit reads, and what to call it: the next audit would count reports written into them.
    static func readTrees(request: AuditRequest, container: ContainerDescription) -> [(path: String, what: String)] {
        var trees: [(String, String)] = [(container.rootPath, "container"), (container.inputPath, "container")]
        if let bundle = request.appBundlePath { trees.append((bundle, "app bundle")) }
        for group in request.appGroupPaths {
            let isExtension =
                request.companionRules[group] == "plug-in bundle"
                || group.contains("/Data/PluginKitPlugin/")
            trees.append((group, isExtension ? "extension data container" : "App Group container"))
        }
        if let backup = request.backupPath { trees.append((backup, "device backup")) }
        if let set = request.deviceSetPath { trees.append((set, "simulator device set")) }
        return trees
    }

    /// A second audit of the app within the second gets `<time>-2`, claimed with `mkdir`, which only one process wins.
    private static func claimFresh(_ folder: String) throws(AuditError) -> String {
        for attempt in 1...1_000 {
            let candidate = attempt == 1 ? folder : "\(folder)-\(attempt)"
            if mkdir(candidate, 0o777) == 0 { return candidate }
            guard errno == EEXIST else {
                throw .output("cannot create the output folder \(candidate): \(SystemError.currentText)")
            }
        }
        throw .output("cannot create the output folder \(folder): a thousand audits of this app this second")
    }

    static func removeIfEmpty(_ folder: String) {
        if (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true { rmdir(folder) }
    }

    /// A bundle id from the container is untrusted: keep it to one harmless path component.
    static func safeName(_ name: String) -> String {
        let cleaned = String(
            name.unicodeScalars.map { scalar in
                CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)
                    ? Character(scalar) : "_"
            })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "unknown-app" : String(cleaned.prefix(200))
    }
}
