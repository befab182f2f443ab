/// Names in the reports folder, shared by `stocktake audit`'s default output and the nightly job.
package enum ReportPaths {
    /// The untrusted bundle id as one harmless path component; a name the reports folder uses for itself gets a `_`
    /// in front, so that no container takes the place of the index page or the history store.
    package static func appFolderName(_ bundleIdentifier: String?) -> String {
        let name = OutputFolder.safeName(bundleIdentifier ?? "unknown-app")
        return isReserved(name) ? "_" + name : name
    }

    /// Compared without case, as macOS's file systems see `Index.HTML` as `index.html`.
    static func isReserved(_ name: String) -> Bool {
        let name = name.lowercased()
        return name.hasPrefix(".") || name == "index.html" || name == "history.sqlite"
            || name.hasPrefix("history.sqlite-")
    }
}
