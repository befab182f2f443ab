import StocktakeModel
import StocktakePolicy

/// The keys of `report.json` that a snapshot needs, collected in one pass in whatever order they come
/// (sorted, as the writer puts them, or not). Keys it does not know are skipped: later versions may add
/// some. Which keys are required is checked at the end (`snapshot(source:)`).
struct ReportDocument {
    private typealias K = ReportKeys

    var schemaVersion: Int64?
    var tool: (name: String, version: String)?
    var generatedAt: String?
    var container: Container?
    /// `XCExecutableVersion` of `AppDataInfo.plist`, when a string.
    var executableVersion: String?
    /// `CFBundleShortVersionString` of the app bundle's Info.plist, when a string.
    var shortVersion: String?
    var totals: ReportSnapshot.Totals?
    var files: EntryTable?
    var directories: EntryTable?
    var groups: [String: [ReportSnapshot.GroupMember]]?
    var budgets: [ReportSnapshot.Budget]?
    var findings: [ReportSnapshot.FindingRecord]?
    var contentCoverageComplete: Bool?

    struct Container {
        var bundleIdentifier: String?
        var path: String
        var layout: String
        var exportedAt: String?
    }

    mutating func read(_ json: inout JSONScanner) throws(JSONReadFailure) {
        try json.forEachMember(at: "") { json, key throws(JSONReadFailure) in
            switch K.Document(rawValue: key) {
            case .appBundle?:
                shortVersion = try json.nestedString(
                    [K.AppBundle.infoPlist.rawValue, "CFBundleShortVersionString"], at: key)
            case .budgets?: budgets = try Self.readBudgets(&json)
            case .container?: (container, executableVersion) = try Self.readContainer(&json)
            case .contentCoverage?:
                contentCoverageComplete = try Members<K.ContentCoverage>(&json, at: key, [.complete: .bool]).bool(
                    .complete)
            case .directories?: directories = try EntryRowsReader(section: key, directories: true).read(&json)
            case .files?: files = try EntryRowsReader(section: key, directories: false).read(&json)
            case .findings?: findings = try Self.readFindings(&json)
            case .generatedAt?: generatedAt = try json.text()
            case .groups?: groups = try Self.readGroups(&json)
            case .schemaVersion?: schemaVersion = try json.integer()
            case .tool?: tool = try Self.readTool(&json)
            case .totals?: totals = try Self.readTotals(&json)
            default: try json.skipValue()
            }
        }
        try json.expectEnd()
    }

    /// The snapshot, once every required key was found.
    func snapshot(source: String) throws(JSONReadFailure) -> ReportSnapshot {
        let container = try required(container, K.Document.container.rawValue)
        let tool = try required(tool, K.Document.tool.rawValue)
        let provenance = ReportSnapshot.Provenance(
            source: source, schemaVersion: Int(try required(schemaVersion, K.Document.schemaVersion.rawValue)),
            toolName: tool.name, toolVersion: tool.version,
            generatedAt: try required(generatedAt, K.Document.generatedAt.rawValue),
            bundleIdentifier: container.bundleIdentifier, appVersion: executableVersion ?? shortVersion,
            containerPath: container.path, layout: container.layout, exportedAt: container.exportedAt)
        return ReportSnapshot(
            provenance: provenance, totals: try required(totals, K.Document.totals.rawValue),
            files: try required(files, K.Document.files.rawValue),
            directories: try required(directories, K.Document.directories.rawValue),
            groups: try required(groups, K.Document.groups.rawValue),
            budgets: try required(budgets, K.Document.budgets.rawValue),
            findings: try required(findings, K.Document.findings.rawValue),
            contentCoverageComplete: contentCoverageComplete)
    }

    private static func readTool(_ json: inout JSONScanner) throws(JSONReadFailure) -> (name: String, version: String) {
        let tool = try Members<K.Tool>(&json, at: K.Document.tool.rawValue, [.name: .text, .version: .text])
        return (try tool.text(.name), try tool.text(.version))
    }

    private static func readContainer(_ json: inout JSONScanner) throws(JSONReadFailure) -> (
        Container, executableVersion: String?
    ) {
        var executableVersion: String?
        let container = try Members<K.Container>(
            &json, at: K.Document.container.rawValue,
            [.bundleIdentifier: .nullableText, .layout: .text, .exportedAt: .nullableText, .path: .text]
        ) { json, key throws(JSONReadFailure) in
            if key == K.Container.metadata.rawValue {
                executableVersion = try json.nestedString(
                    ["AppDataInfo.plist", K.MetadataDocument.value.rawValue, "XCExecutableVersion"],
                    at: KeyPath.member(K.Document.container.rawValue, key))
            } else {
                try json.skipValue()
            }
        }
        return (
            Container(
                bundleIdentifier: try container.nullableText(.bundleIdentifier), path: try container.text(.path),
                layout: try container.text(.layout), exportedAt: container.optionalText(.exportedAt)),
            executableVersion
        )
    }
}

extension JSONScanner {
    /// The string at `keys` below the object here (the report's own), or nil where a value on the way is not an
    /// object (plist values may be anything) or the last is not a string.
    fileprivate mutating func nestedString(_ keys: ArraySlice<String>, at path: String) throws(JSONReadFailure)
        -> String?
    {
        var found: String?
        try forEachMember(at: path) { json, key throws(JSONReadFailure) in
            let inner = keys.dropFirst()
            guard key == keys.first, try json.peek() == (inner.isEmpty ? .string : .object) else {
                return try json.skipValue()
            }
            found = try inner.isEmpty ? json.text() : json.nestedString(inner, at: KeyPath.member(path, key))
        }
        return found
    }
}
