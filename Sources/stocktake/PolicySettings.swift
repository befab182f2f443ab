import ArgumentParser
import Foundation
import StocktakeConsole
import StocktakePolicy

/// `--config` and `--baseline` as the audit and the nightly job read them.
enum PolicySettings {
    /// The configuration (`--config`, else `stocktake.yml` in the current folder when present), its policy
    /// and the baseline. Their errors are usage errors (exit 64) naming file and line.
    static func load(config: String?, baseline: String? = nil) throws -> (PolicyConfiguration, Policy, Baseline?) {
        do {
            let path = config ?? (FileManager.default.fileExists(atPath: "stocktake.yml") ? "stocktake.yml" : nil)
            let configuration = try path.map { path throws(ConfigurationError) in try PolicyConfiguration.load(path: path) } ?? PolicyConfiguration()
            let policy = try Policy(configuration: configuration)
            let baseline = try baseline.map { path throws(ConfigurationError) in try Baseline.load(path: path) }
            return (configuration, policy, baseline)
        } catch {
            throw CommandFailure(.usage, error.description, isMultiline: true)
        }
    }
}
