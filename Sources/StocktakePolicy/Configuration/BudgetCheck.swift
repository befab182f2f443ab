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

    init(scope: String, limit: BudgetLimit, total: SizeTotal, index: Int32) {
        (self.scope, self.index) = (scope, index)
        switch limit {
        case .bytes(let bytes): (self.limit, actual, isCount) = (bytes, total.allocatedBytes, false)
        case .files(let files): (self.limit, actual, isCount) = (files, Int64(total.files), true)
        }
    }
}

extension Budgets {
    /// Every configured budget with its measured value (bytes are allocated bytes).
    public func check(_ inventory: Inventory, groups: [GroupResult]) -> [BudgetResult] {
        let totals = inventory.totals
        let container: [(String, BudgetLimit?, SizeTotal)] = [
            ("total", total.map(BudgetLimit.bytes), totals.onDisk),
            ("files", files.map(BudgetLimit.files), totals.appData),
            ("documentsAndData", documentsAndData.map(BudgetLimit.bytes), totals.documentsAndData),
        ]
        var results = container.compactMap { scope, limit, total in
            limit.map { BudgetResult(scope: scope, limit: $0, total: total, index: inventory.root) }
        }
        for (location, limit) in locations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let index = Self.folder(of: location).flatMap { inventory.index(ofPath: Array($0.utf8)) } ?? inventory.root
            let total = totals.byLocation[location] ?? .zero
            results.append(
                BudgetResult(scope: "locations.\(location.rawValue)", limit: limit, total: total, index: index))
        }
        for group in groups {
            guard let limit = self.groups[group.definition.name] else { continue }
            for member in group.members {
                let scope = "groups.\(group.definition.name).\(member.id)"
                results.append(BudgetResult(scope: scope, limit: limit, total: member.total, index: member.index))
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
