import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakeReport
import StocktakeRendering

/// Chooses and creates the folder the reports go into, and refuses any folder inside the audited tree.
enum OutputFolder {
    /// The folder, created, with the temporaries of earlier killed runs removed.
    static func prepare(request: AuditRequest, container: ContainerDescription) throws(AuditError) -> String {
        // Resolved before the check, and used for writing: `L/out` with `L` a link into the container is
        // judged (and written) where it really is, so the check and the writes cannot disagree.
        let folder = ResolvedPath.of(request.outputDirectory
            ?? "Reports/\(ReportPaths.appFolderName(container.bundleIdentifier))/\(ReportDates.folderName(request.now))")
        for audited in [container.rootPath, container.inputPath] where ResolvedPath.isInside(folder, audited) {
            throw .output("refusing to write reports to \(folder): it is inside the audited container \(audited); choose another --output")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .output("cannot create the output folder \(folder): \(FileSystemReason.of(error))")
        }
        guard access(folder, W_OK) == 0 else {
            throw .output("cannot write into the output folder \(folder): \(SystemError.currentText)")
        }
        for case .file(let name) in ReportFormat.allCases.map(\.destination) {
            AtomicFile.removeLeftovers(of: folder + "/" + name)
        }
        return folder
    }

    static func removeIfEmpty(_ folder: String) {
        if (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true { rmdir(folder) }
    }

    /// A bundle id from the container is untrusted: keep it to one harmless path component.
    static func safeName(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.map { scalar in
            CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
        })
        return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "unknown-app" : String(cleaned.prefix(200))
    }
}
