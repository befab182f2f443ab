import Foundation

/// The package's own checkout, found from this file's place in it (Tests/TestSupport/), so tests read the
/// sources, samples, schemas and documents they check wherever the clone is.
package enum Repository {
    /// The folder holding Package.swift, without a trailing slash.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The absolute path of `relative` (`Reports/report.schema.json`) inside the checkout.
    package static func path(_ relative: String) -> String {
        root + "/" + relative
    }
}
