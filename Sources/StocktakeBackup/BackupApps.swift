import StocktakeModel

/// The apps of a backup (`AppDomain-<id>`), each with the group and extension domains `Manifest.plist` gives it, else
/// those its id's shape names (`<app id>.…`, `group.<app id>…`; the longest matching app id wins).
package struct BackupApps: Sendable {
    package struct App: Sendable, Equatable {
        package let domain: DeviceBackupSummary.Domain
        package let companions: [DeviceBackupSummary.Domain]
        package var bundleIdentifier: String { domain.identifier }
    }

    package let apps: [App]
    /// Group and extension domains no app claims.
    package let unattributed: [DeviceBackupSummary.Domain]

    /// Counted from the `DomainTree`s, so the listing, the report's `deviceBackup` and its totals agree.
    package init(domains trees: [String: DomainTree], folder: BackupFolder) {
        let domains = trees.compactMap { name, tree in
            let files = tree.records.filter(\.isFileLike)
            let total = SizeTotal(
                files: files.count, apparentBytes: files.map(\.size).saturatingSum(),
                allocatedBytes: files.map { DeviceBackupSummary.estimatedAllocation($0.size) }.saturatingSum())
            // Every folder but the domain root.
            let directories = tree.records.count { !$0.isFileLike && !$0.relativePath.isEmpty }
            return Self.domain(
                name, total: total, symlinks: files.count { $0.type == .symlink }, directories: directories)
        }
        .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let appDomains = domains.filter { $0.kind == .app }
        let byOwner = Dictionary(grouping: domains.filter { $0.kind != .app }) {
            Self.owner(of: $0, among: appDomains.map(\.identifier), folder: folder)
        }
        apps = appDomains.map { App(domain: $0, companions: byOwner[$0.identifier] ?? []) }
        unattributed = byOwner[nil] ?? []
    }

    package func app(_ identifier: String) -> App? { apps.first { $0.bundleIdentifier == identifier } }

    /// The ids closest to `identifier` (edit distance, case ignored), for "did you mean".
    package func nearest(to identifier: String, limit: Int = 3) -> [String] {
        let wanted = identifier.lowercased()
        return apps.map { ($0.bundleIdentifier, EditDistance.between(wanted, $0.bundleIdentifier.lowercased())) }
            .filter { $0.1 <= max(3, wanted.count / 2) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }

    static func domain(_ name: String, total: SizeTotal, symlinks: Int, directories: Int) -> DeviceBackupSummary.Domain?
    {
        for (prefix, kind) in [
            ("AppDomainGroup-", DeviceBackupSummary.Domain.Kind.appGroup), ("AppDomainPlugin-", .plugin),
            ("AppDomain-", .app),
        ]
        where name.hasPrefix(prefix) && name.count > prefix.count {
            return DeviceBackupSummary.Domain(
                name: name, kind: kind, identifier: String(name.dropFirst(prefix.count)), total: total,
                symlinks: symlinks, directories: directories)
        }
        return nil
    }

    private static func owner(of companion: DeviceBackupSummary.Domain, among apps: [String], folder: BackupFolder)
        -> String?
    {
        let id = companion.identifier
        let stem = companion.kind == .appGroup && id.hasPrefix("group.") ? String(id.dropFirst("group.".count)) : id
        return apps.first { app in
            let declared = folder.declaredCompanions(of: app)
            return (companion.kind == .appGroup ? declared.groups : declared.plugins).contains(id)
        } ?? apps.filter { stem == $0 || stem.hasPrefix($0 + ".") }.max { $0.count < $1.count }
    }
}
