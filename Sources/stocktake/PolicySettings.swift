import ArgumentParser
import Foundation
import StocktakeFiles
import StocktakePolicy

/// `--config` and `--baseline` as the audit and the nightly job read them.
enum PolicySettings {
    /// `--config`, else `stocktake.yml` in the current folder when present.
    static func configurationPath(_ config: String?) -> String? {
        config ?? (FileManager.default.fileExists(atPath: "stocktake.yml") ? "stocktake.yml" : nil)
    }

    /// A digest of the configuration file's bytes ("" without one): what the nightly job keys "same policy" on.
    static func digest(config: String?) -> String {
        guard let path = configurationPath(config) else { return "" }
        var options = RegularFile.Options.named(maxBytes: 1 << 20)
        return (try? RegularFile.open(path, options: &options).readAll()).map(Digests.sha256Hex) ?? ""
    }

    /// The configuration (`--config`, else `stocktake.yml` in the current folder when present), its policy
    /// and the baseline. Their errors are usage errors (exit 64) naming file and line.
    static func load(config: String?, baseline: String? = nil) throws -> (PolicyConfiguration, Policy, Baseline?) {
        do {
            let path = configurationPath(config)
            let configuration =
                try path.map { path throws(ConfigurationError) in try PolicyConfiguration.load(path: path) }
                ?? PolicyConfiguration()
            let policy = try Policy(configuration: configuration)
            let baseline = try baseline.map { path throws(ConfigurationError) in try Baseline.load(path: path) }
            return (configuration, policy, baseline)
        } catch {
            throw CommandFailure(.usage, error.description, isMultiline: true)
        }
    }
}
