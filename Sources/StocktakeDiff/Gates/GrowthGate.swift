import StocktakeModel
import StocktakePolicy

/// `--fail-on-growth SPEC`: trips when allocated bytes grow by more than a percentage or an amount,
/// on the total or on one scope. Specs: `10%`, `50MB`, `applicationSupport:10%`, `documentsAndData:20MB`.
package struct GrowthGate: Sendable, Equatable {
    package enum Scope: Sendable, Equatable {
        /// A row of `ReportDiff.totals`: total (everything on disk, the TOTAL row), documentsAndData, purgeable,
        /// backedUp (= backup.included).
        case totalRow(name: String, id: String)
        case location(Location)

        var name: String {
            switch self {
            case .totalRow(let name, _): name
            case .location(let location): location.rawValue
            }
        }

        /// What a reader calls it, the id a gate is written with in parentheses: "Documents & Data (documentsAndData)".
        var displayName: String {
            let title: String =
                switch self {
                case .totalRow(_, let id): DiffLabels.total(id)
                case .location(let location): location.title
                }
            return title == name ? title : "\(title) (\(name))"
        }
    }

    package enum Limit: Sendable, Equatable {
        case percent(Double)
        case bytes(Int64)
    }

    package let spec: String
    package let scope: Scope
    package let limit: Limit

    /// The scope names a spec may start with, for the usage message.
    package static var scopeNames: [String] {
        ["total", "documentsAndData", "purgeable", "backedUp"] + Location.allCases.map(\.rawValue)
    }

    package static func parse(_ spec: String) throws(GateSpecError) -> GrowthGate {
        let text = spec.trimmingCharacters(in: .whitespaces)
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let scopeName = parts.count == 2 ? parts[0].trimmingCharacters(in: .whitespaces) : "total"
        let amount = parts[parts.count - 1].trimmingCharacters(in: .whitespaces)
        let problem = { (text: String) in GateSpecError("--fail-on-growth '\(spec)': " + text) }
        let scope: Scope
        switch scopeName {
        case "total", "onDisk": scope = .totalRow(name: "total", id: DiffLabels.onDisk)
        case "documentsAndData", "purgeable": scope = .totalRow(name: scopeName, id: scopeName)
        case "backedUp": scope = .totalRow(name: scopeName, id: "backup.included")
        default:
            guard let location = Location(rawValue: scopeName) else {
                let suggestion = EditDistance.closest(to: scopeName, among: scopeNames).map {
                    "; did you mean '\($0)'?"
                }
                let scopes = scopeNames.joined(separator: ", ")
                throw problem("unknown scope '\(scopeName)'\(suggestion ?? "") (scopes: \(scopes))")
            }
            scope = .location(location)
        }
        if amount.hasSuffix("%") {
            guard let percent = Double(amount.dropLast().trimmingCharacters(in: .whitespaces)), percent.isFinite,
                percent >= 0
            else { throw problem("'\(amount)' is not a percentage such as 10%") }
            return GrowthGate(spec: text, scope: scope, limit: .percent(percent))
        }
        guard !amount.isEmpty, let bytes = ByteQuantity.parse(amount) else {
            throw problem("'\(amount)' is neither a percentage (10%) nor a size (50MB, 1.5GB, 200KiB)")
        }
        return GrowthGate(spec: text, scope: scope, limit: .bytes(bytes))
    }

    /// Trips when the scope's allocated bytes grew by more than the limit. A scope that was empty and
    /// now holds data grew by an unbounded percentage: a percentage gate trips on it.
    package func evaluate(_ diff: ReportDiff) -> DiffGateResult {
        let row = self.row(in: diff)
        let (before, delta) = (row.oldOrZero.allocatedBytes, row.allocatedDelta)
        let (tripped, limitText) =
            switch limit {
            case .percent(let percent):
                (
                    delta > 0 && (before == 0 || Double(delta) * 100 > percent * Double(before)),
                    "\(Self.decimal(percent))%"
                )
            case .bytes(let bytes): (delta > bytes, ByteCount.format(bytes))
            }
        // The magnitude, not -delta: a foreign report's extreme figures can make the delta Int64.min.
        let change =
            delta >= 0
            ? "grew \(ByteCount.format(delta))" : "shrank \(ByteCount.format(Int64(clamping: delta.magnitude)))"
        let share =
            before == 0
            ? (delta == 0 ? "" : " (was empty)")
            : " (\(delta >= 0 ? "+" : "")\(Self.decimal(Double(delta) * 100 / Double(before)))%)"
        let verdict = tripped ? "over the \(limitText) limit" : "within the \(limitText) limit"
        var result = DiffGateResult(
            gate: "--fail-on-growth \(spec)", tripped: tripped,
            message: "\(scope.displayName) \(change)\(share), \(verdict)")
        if tripped { result.places = places }
        return result
    }

    /// The locations a scope covers; the totals that span most of the container name no place.
    private var places: [GatePlace] {
        switch scope {
        case .location(let location): [.location(location)]
        case .totalRow(_, let id) where id == "purgeable": [.location(.caches), .location(.tmp)]
        case .totalRow: []
        }
    }

    private func row(in diff: ReportDiff) -> SizeChange {
        switch scope {
        case .totalRow(_, let id): diff.total(id)
        case .location(let location): diff.location(location)
        }
    }

    /// One decimal, without a trailing ".0".
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.magnitude < 1e15 else { return value > 0 ? "inf" : "-inf" }
        let whole = Int64(tenths) / 10
        let rest = Int64(tenths.magnitude) % 10
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return rest == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(rest)"
    }
}

/// `--fail-on-new-findings [SEVERITY]`: trips when the new report has findings the old one did not
/// (matched by fingerprint) at or above the severity.
package struct NewFindingsGate: Sendable, Equatable {
    package let severity: Severity

    package init(severity: Severity) { self.severity = severity }

    package func evaluate(_ diff: ReportDiff) -> DiffGateResult {
        let counted = diff.findings.new.filter { $0.severity >= severity }
        let gate = "--fail-on-new-findings \(severity.rawValue)"
        guard let first = counted.first else {
            return DiffGateResult(
                gate: gate, tripped: false, message: "no new findings at \(severity.rawValue) or above")
        }
        let more = counted.count > 1 ? " and \(counted.count - 1) more" : ""
        let example =
            "\(VisibleText.render(first.rule, as: .message)) at \(VisibleText.render(first.path, as: .message))"
        let found = "\(counted.count) new \(Plural.noun(counted.count, "finding")) at \(severity.rawValue) or above"
        var result = DiffGateResult(gate: gate, tripped: true, message: "\(found): \(example)\(more)")
        // The treemap outlines where they are (a bounded number: the page marks places, it does not list findings).
        result.places = counted.prefix(1000).map { .path($0.path) }
        return result
    }
}

/// A `--fail-on-growth` spec that cannot be read (exit status 64).
package struct GateSpecError: Error, Sendable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
