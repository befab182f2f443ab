import StocktakeFiles

/// Where `--metrics-file` may be written: it is replaced whole every time, so never over what a job reads or keeps
/// (the history, a report, an inbox's export), as `--output` is never inside the audited tree.
package enum MetricsFilePlace {
    /// Why `path` cannot be the metrics file, or nil. `kept`: each tree or file the job reads or keeps, with what it
    /// is ("the reports folder", "the history").
    package static func problem(_ path: String, kept: [(path: String, what: String)]) -> String? {
        let resolved = ResolvedPath.of(path)
        // By name too: a history not yet created is still where the metrics file must not go.
        for place in kept where resolved == ResolvedPath.of(place.path) || ResolvedPath.isInside(path, place.path) {
            return
                "refusing to write the metrics file to \(path): it is \(resolved == ResolvedPath.of(place.path) ? "" : "inside ")\(place.what) \(place.path); choose another --metrics-file (node_exporter's textfile folder)"
        }
        return nil
    }
}
