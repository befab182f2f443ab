/// Names in the reports folder, shared by `stocktake audit`'s default output and the nightly job.
package enum ReportPaths {
    /// The folder of an app's reports: its bundle id (untrusted: it comes from the container), kept to
    /// one harmless path component; `unknown-app` when there is none. A name the reports folder uses for
    /// itself gets a `_` in front (a bundle id read from a container never holds one), so that no container
    /// can take the place of the index page or the history store and break them for every app.
    package static func appFolderName(_ bundleIdentifier: String?) -> String {
        let name = OutputFolder.safeName(bundleIdentifier ?? "unknown-app")
        return isReserved(name) ? "_" + name : name
    }

    /// `index.html`, the history store `history.sqlite` and the files SQLite keeps beside it
    /// (`-journal`, `-wal`, `-shm`, …), hidden working files (`.partial-…`, the lock). Case-insensitive
    /// file systems (macOS) see `Index.HTML` as `index.html`.
    static func isReserved(_ name: String) -> Bool {
        let name = name.lowercased()
        return name.hasPrefix(".") || name == "index.html" || name == "history.sqlite"
            || name.hasPrefix("history.sqlite-")
    }
}
