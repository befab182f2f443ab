import StocktakeReport

/// diff.json's keys, one enum per kind of object, as `ReportKeys` holds report.json's: the JSON writer names keys
/// only through these, and a test holds each enum to the properties Reports/diff.schema.json allows for its object.
/// Sizes and percents use report.json's own `SizeTotal` keys; location and backup-state ids come from the model.
enum DiffKeys {
    typealias Tool = ReportKeys.Tool
    /// A row's `delta`, `new`, `old` and `percent` objects: report.json's size totals.
    typealias Figures = ReportKeys.SizeTotal

    enum Document: String, CaseIterable {
        case budgets, directories, directoriesNotShown, files, findings, gates, groups, locations, new, old,
            schemaVersion
        case tool, totals
    }

    /// A size row: `delta`, `new`, `old`, `percent`, and what names it (a path, a location, a group member's id).
    enum Row: String, CaseIterable {
        case delta, id, location, new, old, path, percent
    }

    enum NotShown: String, CaseIterable {
        case allocatedBytes, count
    }

    enum Files: String, CaseIterable {
        case added, changed, leftBehind, moved, removed
    }

    enum Move: String, CaseIterable {
        case delta, evidence, location, new, old, oldLocation, oldPath, path
    }

    enum Budget: String, CaseIterable {
        case new, old, scope, unit
    }

    enum BudgetSide: String, CaseIterable {
        case actual, exceeded, limit
    }

    enum Findings: String, CaseIterable {
        case new, resolved, unchanged
    }

    enum Finding: String, CaseIterable {
        case bytes, fingerprint, message, path, rule, severity
    }

    enum Gate: String, CaseIterable {
        case gate, message, tripped
    }

    enum Provenance: String, CaseIterable {
        case appVersion, bundleIdentifier, containerPath, exportedAt, generatedAt, layout, schemaVersion, source,
            toolName
        case toolVersion
    }
}
