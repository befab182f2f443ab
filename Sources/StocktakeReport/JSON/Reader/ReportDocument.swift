import StocktakeModel
import StocktakePolicy

/// The keys of `report.json` that a snapshot needs, collected in one pass in whatever order they come
/// (sorted, as the writer puts them, or not). Keys it does not know are skipped: later versions may add
/// some. Which keys are required is checked at the end (`snapshot(source:)`).
struct ReportDocument {
    private typealias K = ReportKeys

    var schemaVersion: Int64?
    var toolName: String?
    var toolVersion: String?
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

    struct Container {
        var bundleIdentifier: String?
        var path: String
        var layout: String
        var exportedAt: String?
    }

    mutating func read(_ json: inout JSONScanner) throws(JSONReadFailure) {
        try json.forEachMember(at: "") { json, key throws(JSONReadFailure) in
            switch K.Document(rawValue: key) {
            case .appBundle?: shortVersion = try Self.readShortVersion(&json)
            case .budgets?: budgets = try Self.readBudgets(&json)
            case .container?: (container, executableVersion) = try Self.readContainer(&json)
            case .directories?: directories = try EntryRowsReader(section: K.Document.directories.rawValue, directories: true).read(&json)
            case .files?: files = try EntryRowsReader(section: K.Document.files.rawValue, directories: false).read(&json)
            case .findings?: findings = try Self.readFindings(&json)
            case .generatedAt?: generatedAt = try json.text()
            case .groups?: groups = try Self.readGroups(&json)
            case .schemaVersion?: schemaVersion = try json.integer()
            case .tool?: (toolName, toolVersion) = try Self.readTool(&json)
            case .totals?: totals = try Self.readTotals(&json)
            default: try json.skipValue()
            }
        }
        try json.expectEnd()
    }

    /// The snapshot, once every required key was found.
    func snapshot(source: String) throws(JSONReadFailure) -> ReportSnapshot {
        let container = try required(container, "container")
        let provenance = ReportSnapshot.Provenance(
            source: source, schemaVersion: Int(try required(schemaVersion, "schemaVersion")),
            toolName: try required(toolName, "tool.name"), toolVersion: try required(toolVersion, "tool.version"),
            generatedAt: try required(generatedAt, "generatedAt"), bundleIdentifier: container.bundleIdentifier,
            appVersion: executableVersion ?? shortVersion, containerPath: container.path, layout: container.layout,
            exportedAt: container.exportedAt)
        return ReportSnapshot(
            provenance: provenance, totals: try required(totals, "totals"), files: try required(files, "files"),
            directories: try required(directories, "directories"), groups: try required(groups, "groups"),
            budgets: try required(budgets, "budgets"), findings: try required(findings, "findings"))
    }

    // MARK: - Provenance

    private static func readTool(_ json: inout JSONScanner) throws(JSONReadFailure) -> (String, String) {
        var name: String?, version: String?
        try json.forEachMember(at: "tool") { json, key throws(JSONReadFailure) in
            switch K.Tool(rawValue: key) {
            case .name?: name = try json.text()
            case .version?: version = try json.text()
            default: try json.skipValue()
            }
        }
        return (try required(name, "tool.name"), try required(version, "tool.version"))
    }

    private static func readContainer(_ json: inout JSONScanner) throws(JSONReadFailure) -> (Container, executableVersion: String?) {
        var bundleIdentifier: String??, path: String?, layout: String?, executableVersion: String?, exportedAt: String?
        try json.forEachMember(at: "container") { json, key throws(JSONReadFailure) in
            switch K.Container(rawValue: key) {
            case .bundleIdentifier?: bundleIdentifier = .some(try json.optionalText())
            case .layout?: layout = try json.text()
            case .exportedAt?: exportedAt = try json.optionalText()
            case .path?: path = try json.text()
            case .metadata?: executableVersion = try readExecutableVersion(&json)
            default: try json.skipValue()
            }
        }
        let container = Container(
            bundleIdentifier: try required(bundleIdentifier, "container.bundleIdentifier"), path: try required(path, "container.path"),
            layout: try required(layout, "container.layout"), exportedAt: exportedAt)
        return (container, executableVersion)
    }

    /// `metadata["AppDataInfo.plist"].value.XCExecutableVersion`; every other plist value is skipped.
    private static func readExecutableVersion(_ json: inout JSONScanner) throws(JSONReadFailure) -> String? {
        var version: String?
        try json.forEachMember(at: "container.metadata") { json, document throws(JSONReadFailure) in
            guard document == "AppDataInfo.plist", try json.peek() == .object else { return try json.skipValue() }
            try json.forEachMember(at: "container.metadata.AppDataInfo.plist") { json, key throws(JSONReadFailure) in
                guard key == K.MetadataDocument.value.rawValue else { return try json.skipValue() }
                version = try stringMember("XCExecutableVersion", of: &json, at: "container.metadata.AppDataInfo.plist.value")
            }
        }
        return version
    }

    /// `appBundle.infoPlist.CFBundleShortVersionString`.
    private static func readShortVersion(_ json: inout JSONScanner) throws(JSONReadFailure) -> String? {
        var version: String?
        try json.forEachMember(at: "appBundle") { json, key throws(JSONReadFailure) in
            guard key == K.AppBundle.infoPlist.rawValue else { return try json.skipValue() }
            version = try stringMember("CFBundleShortVersionString", of: &json, at: "appBundle.infoPlist")
        }
        return version
    }

    /// A string member of a plist value, when the value is a dictionary and the member a string; else nil.
    private static func stringMember(_ wanted: String, of json: inout JSONScanner, at path: String) throws(JSONReadFailure) -> String? {
        guard try json.peek() == .object else {
            try json.skipValue()
            return nil
        }
        var found: String?
        try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
            if key == wanted, try json.peek() == .string { found = try json.text() } else { try json.skipValue() }
        }
        return found
    }
}
