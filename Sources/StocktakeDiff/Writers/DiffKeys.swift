import StocktakeRendering
import StocktakeReport

/// diff.json's keys, one enum per kind of object, as `ReportKeys` holds report.json's: the JSON writer names keys
/// only through these, and a test holds each enum to the properties Reports/diff.schema.json allows for its object.
/// Sizes and percents use report.json's own `SizeTotal` keys; location and backup-state ids come from the model.
enum DiffKeys {
    typealias Tool = ReportKeys.Tool
    /// A row's `delta`, `new`, `old` and `percent` objects: report.json's size totals.
    typealias Figures = ReportKeys.SizeTotal

    enum Document: String, CaseIterable, JSONKey {
        case budgets, directories, directoriesNotShown, files, findings, gates, groups, locations, new, old
        case schemaVersion, tool, totals
    }

    /// A size row: `delta`, `new`, `old`, `percent`, and what names it (a path, a location, a group member's id).
    enum Row: String, CaseIterable, JSONKey { case delta, id, location, new, old, path, percent }

    enum NotShown: String, CaseIterable, JSONKey { case allocatedBytes, count }

    enum Files: String, CaseIterable, JSONKey { case added, changed, leftBehind, moved, removed }

    enum Move: String, CaseIterable, JSONKey { case delta, evidence, location, new, old, oldLocation, oldPath, path }

    enum Budget: String, CaseIterable, JSONKey { case new, old, scope, unit }

    enum BudgetSide: String, CaseIterable, JSONKey { case actual, exceeded, limit }

    enum Findings: String, CaseIterable, JSONKey { case new, resolved, unchanged }

    /// A finding: report.json's, without `fix`.
    typealias Finding = ReportKeys.Finding

    enum Gate: String, CaseIterable, JSONKey { case gate, message, tripped }

    enum Provenance: String, CaseIterable, JSONKey {
        case appVersion, bundleIdentifier, containerPath, exportedAt, generatedAt, layout, schemaVersion, source
        case toolName, toolVersion
    }
}
