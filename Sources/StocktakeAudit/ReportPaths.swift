/// Names in the reports folder, shared by `stocktake audit`'s default output and the nightly job.
public enum ReportPaths {
    /// The folder of an app's reports: its bundle id (untrusted: it comes from the container), kept to
    /// one harmless path component; `unknown-app` when there is none.
    public static func appFolderName(_ bundleIdentifier: String?) -> String {
        OutputFolder.safeName(bundleIdentifier ?? "unknown-app")
    }
}
