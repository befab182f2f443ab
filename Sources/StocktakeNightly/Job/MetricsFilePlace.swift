import StocktakeFiles

/// Where `--metrics-file` may be written: it is replaced whole, so never over what a job reads or keeps.
package enum MetricsFilePlace {
    /// `kept`: each tree or file the job reads or keeps, and what it is ("the history").
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
