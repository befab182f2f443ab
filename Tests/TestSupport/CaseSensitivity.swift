import Foundation
import Testing

/// Whether the temporary folder's volume tells names apart by case. macOS's default APFS volume does not: there
/// `a` and `A` are one entry, so a fixture holding both cannot be made. Fixtures never need such twins, but for a
/// test of them, which is then enabled only where the volume has them.
package enum CaseSensitivity {
    /// Probed once: `a` made in a fresh temporary folder, then `A` looked up.
    package static let temporaryFolder: Bool = {
        guard let tree = try? TemporaryTree("case-probe"), (try? tree.mkdir("a")) != nil else { return false }
        return !FileManager.default.fileExists(atPath: tree.path("A"))
    }()

    package static let hint: Comment =
        "the temporary folder's volume is case-insensitive (macOS's default APFS): names differing only by case are one entry there"
}
