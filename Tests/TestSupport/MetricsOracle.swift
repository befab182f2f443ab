import Foundation
import Testing

/// A metrics file as Prometheus reads it, by Prometheus' own tools: `promtool check metrics` (the text parser and
/// its lint, which must say nothing) and the strict OpenMetrics parser of its Python client (`# EOF`, units, types).
/// Each skips when missing, and fails under CI.
package enum MetricsOracle {
    package static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tree = try TemporaryTree("metrics")
        try tree.write("m.prom", string: text)
        let file = tree.path("m.prom")
        if OutsideTools.has("promtool") {
            let checked = try StocktakeProcess.runCommand(["/bin/sh", "-c", "promtool check metrics < '\(file)'"])
            #expect(
                checked.status == 0, "promtool: \(checked.stdout) \(checked.stderr)", sourceLocation: sourceLocation)
            #expect(
                checked.stdout.isEmpty && checked.stderr.isEmpty,
                "promtool's lint: \(checked.stdout) \(checked.stderr)",
                sourceLocation: sourceLocation)
        } else if OutsideTools.required {
            Issue.record("promtool is missing; CI requires it", sourceLocation: sourceLocation)
        }
        let parsed = try StocktakeProcess.runCommand([
            "/usr/bin/env", "python3", "-c",
            """
            import sys
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
            print(len(list(text_string_to_metric_families(open(sys.argv[1]).read()))))
            """, file,
        ])
        if parsed.stderr.contains("No module named 'prometheus_client'") {
            if OutsideTools.required {
                Issue.record("python3's prometheus_client is missing; CI requires it", sourceLocation: sourceLocation)
            }
            return
        }
        #expect(parsed.status == 0, "the OpenMetrics parser: \(parsed.stderr)", sourceLocation: sourceLocation)
        #expect(
            Int(parsed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 1, sourceLocation: sourceLocation
        )
    }
}
