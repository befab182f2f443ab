import Foundation
import StocktakeModel
import StocktakeReport

/// Chooses and creates the folder the reports go into, and refuses any folder inside the audited tree.
enum OutputFolder {
    static func prepare(request: AuditRequest, container: ContainerDescription) throws(AuditError) -> String {
        let folder = request.outputDirectory.map(absolute)
            ?? absolute("Reports/\(safeName(container.bundleIdentifier ?? "unknown-app"))/\(ReportDates.folderName(request.now))")
        let root = resolved(container.rootPath)
        let input = resolved(container.inputPath)
        let target = resolved(folder)
        for audited in [root, input] where target == audited || target.hasPrefix(audited + "/") {
            throw .output("refusing to write reports to \(folder): it is inside the audited container \(audited); choose another --output")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .output("cannot create the output folder \(folder): \(reason(error))")
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

    /// The real path of the longest existing prefix, plus the rest: catches symlinked routes into the container.
    private static func resolved(_ path: String) -> String {
        var url = URL(fileURLWithPath: absolute(path))
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: url.path) && url.path != "/" {
            rest.insert(url.lastPathComponent, at: 0)
            url.deleteLastPathComponent()
        }
        let base = url.resolvingSymlinksInPath().path
        return rest.isEmpty ? base : (base == "/" ? "" : base) + "/" + rest.joined(separator: "/")
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
