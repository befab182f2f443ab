import StocktakeModel

/// "+254 KB, mostly Library/Application Support/Models, …": where a diff's growth went, in the folders a
/// reader would open. An ancestor grows by as much as any folder inside it, so a folder stands in for its
/// ancestor when it holds at least half of the ancestor's growth.
extension ReportDiff {
    package func foldersThatGrewMost(_ count: Int = 3) -> [SizeChange] {
        var picked: [SizeChange] = []
        let grown = directories.shown.filter { $0.allocatedDelta > 0 }.sorted {
            ($0.allocatedDelta, $1.id) > ($1.allocatedDelta, $0.id)
        }
        for folder in grown {
            if let outer = picked.firstIndex(where: { Self.contains($0.id, folder.id) }) {
                if folder.allocatedDelta >= picked[outer].allocatedDelta - folder.allocatedDelta {
                    picked[outer] = folder
                }
            } else if !picked.contains(where: { Self.contains(folder.id, $0.id) }), picked.count < count {
                picked.append(folder)
            }
        }
        return picked.sorted { ($0.allocatedDelta, $1.id) > ($1.allocatedDelta, $0.id) }
    }

    /// Whether the folder at `outer` holds `inner` (paths relative to the container root, `/`-separated).
    private static func contains(_ outer: String, _ inner: String) -> Bool {
        outer.isEmpty || inner.hasPrefix(outer + "/")
    }
}
