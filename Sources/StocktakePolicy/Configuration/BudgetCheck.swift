import StocktakeModel

/// One budget against what the container holds.
public struct BudgetResult: Sendable, Equatable {
    /// `total`, `files`, `documentsAndData`, `locations.<id>` or `groups.<name>.<member id>`.
    public let scope: String
    public let limit: Int64
    public let actual: Int64
    /// Where a finding about it points.
    public let index: Int32
    /// The limit counts files rather than allocated bytes.
    public let isCount: Bool
    public var exceeded: Bool { actual > limit }

    init(scope: String, limit: Int64, actual: Int64, index: Int32, isCount: Bool = false) {
        self.scope = scope
        self.limit = limit
        self.actual = actual
        self.index = index
        self.isCount = isCount
    }

    init(scope: String, limit: BudgetLimit, total: SizeTotal, index: Int32) {
        switch limit {
        case .bytes(let bytes): self.init(scope: scope, limit: bytes, actual: total.allocatedBytes, index: index)
        case .files(let files):
            self.init(scope: scope, limit: files, actual: Int64(total.files), index: index, isCount: true)
        }
    }
}

extension Budgets {
    /// Every configured budget with its measured value (bytes are allocated bytes).
    public func check(_ inventory: Inventory, groups: [GroupResult]) -> [BudgetResult] {
        let totals = inventory.totals
        var results: [BudgetResult] = []
        if let total {
            results.append(
                BudgetResult(scope: "total", limit: total, actual: totals.onDisk.allocatedBytes, index: inventory.root))
        }
        if let files {
            let count = Int64(totals.byLocation.values.reduce(0) { $0 + $1.files })
            results.append(
                BudgetResult(scope: "files", limit: files, actual: count, index: inventory.root, isCount: true))
        }
        if let documentsAndData {
            results.append(
                BudgetResult(
                    scope: "documentsAndData", limit: documentsAndData, actual: totals.documentsAndData.allocatedBytes,
                    index: inventory.root))
        }
        for (location, limit) in locations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let index = Self.folder(of: location).flatMap { inventory.index(ofPath: Array($0.utf8)) } ?? inventory.root
            results.append(
                BudgetResult(
                    scope: "locations.\(location.rawValue)", limit: limit, total: totals.byLocation[location] ?? .zero,
                    index: index))
        }
        for group in groups {
            guard let limit = self.groups[group.definition.name] else { continue }
            for member in group.members {
                results.append(
                    BudgetResult(
                        scope: "groups.\(group.definition.name).\(member.id)", limit: limit, total: member.total,
                        index: member.index))
            }
        }
        return results
    }

    private static func folder(of location: Location) -> String? {
        switch location {
        case .documents: "Documents"
        case .applicationSupport: "Library/Application Support"
        case .caches: "Library/Caches"
        case .tmp: "tmp"
        case .preferences: "Library/Preferences"
        case .libraryOther: "Library"
        case .systemData: "SystemData"
        case .other: nil
        }
    }
}
