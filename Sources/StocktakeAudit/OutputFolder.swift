import Foundation
import StocktakeModel
import StocktakeReport

/// Chooses and creates the folder the reports go into, and refuses any folder inside the audited tree.
enum OutputFolder {
    static func prepare(request: AuditRequest, container: ContainerDescription) throws(AuditError) -> String {
        let folder = request.outputDirectory.map(absolute)
            ?? absolute("Reports/\(ReportPaths.appFolderName(container.bundleIdentifier))/\(ReportDates.folderName(request.now))")
        for audited in [container.rootPath, container.inputPath] where isInside(folder, audited) {
            throw .output("refusing to write reports to \(folder): it is inside the audited container \(audited); choose another --output")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .output("cannot create the output folder \(folder): \(FileSystemReason.of(error))")
        }
        guard access(folder, W_OK) == 0 else {
            throw .output("cannot write into the output folder \(folder): \(String(cString: strerror(errno)))")
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

    private static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }

    /// Whether `folder` is `audited` or beneath it, by file identity rather than spelling: symlinked routes,
    /// `..`, and case-insensitive file systems all lead to the same (device, inode) pairs.
    private static func isInside(_ folder: String, _ audited: String) -> Bool {
        var target = stat()
        guard stat(audited, &target) == 0 else { return false }
        var url = URL(fileURLWithPath: absolute(folder))
        while true {
            var info = stat()
            if stat(url.path, &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino { return true }
            guard url.path != "/" else { return false }
            url.deleteLastPathComponent()
        }
    }
}
