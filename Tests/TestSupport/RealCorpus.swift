import Foundation
import Testing

/// Real layouts and files from other people's public projects (see Tests/README.md). They are not ours to ship,
/// so they stay out of the repository: `STOCKTAKE_CORPUS` names the folder holding them (`.ci/run` finds the
/// team's copy). Without it their tests skip with `hint`; under CI (`CI=true`) they run and fail saying it is
/// missing, so a green CI run means the real data was read.
package enum RealCorpus {
    /// The folder `STOCKTAKE_CORPUS` names, when set.
    package static let root: String? = {
        guard let value = ProcessInfo.processInfo.environment["STOCKTAKE_CORPUS"], !value.isEmpty else { return nil }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }()

    /// For `.enabled(if: RealCorpus.enabled, RealCorpus.hint)`: runs where the corpus is named, and always in CI.
    package static let enabled = root != nil || OutsideTools.inCI

    package static let hint: Comment =
        "set STOCKTAKE_CORPUS to the real-world corpus (a folder holding samples/ and the listings); CI=true turns this skip into a failure"

    package struct Missing: Error, CustomStringConvertible {
        package let description: String
    }

    /// The absolute path of `relative` (`samples/blueowl-Cookies.binarycookies`) in the corpus; throws, saying
    /// what is missing, when the variable is unset or the corpus lacks the file.
    package static func path(_ relative: String) throws -> String {
        try folder(holding: relative) + "/" + relative
    }

    /// The corpus folder, once it is known to hold `relative`.
    package static func folder(holding relative: String) throws -> String {
        guard let root else {
            throw Missing(description: "STOCKTAKE_CORPUS is not set: the real-world corpus is needed (\(relative))")
        }
        guard FileManager.default.fileExists(atPath: root + "/" + relative) else {
            throw Missing(description: "STOCKTAKE_CORPUS (\(root)) holds no \(relative)")
        }
        return root
    }
}
