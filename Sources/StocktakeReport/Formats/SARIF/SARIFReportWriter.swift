import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// Writes `report.sarif`: SARIF 2.1.0 with one run, the whole rule catalog in `tool.driver.rules` and one
/// result per finding. Locations are relative to `CONTAINER_ROOT` (described in `originalUriBaseIds`), so
/// the same container audited on two machines yields the same results. Keys are sorted (`JSONStream`).
public struct SARIFReportWriter: Sendable {
    /// The OASIS schema the document conforms to (the tests validate against it; see Tests/README.md).
    public static let schemaURI =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The base every artifact URI is relative to.
    public static let rootBaseID = "CONTAINER_ROOT"

    public init() {}

    public func write(_ report: Report, to sink: @escaping ([UInt8]) throws -> Void) throws {
        let json = JSONStream(sink: sink)
        let catalog = RuleCatalog(findings: report.findings)
        try json.beginObject()
        try json.key("$schema")
        try json.string(Self.schemaURI)
        try json.key("runs")
        try json.beginArray()
        try json.beginObject()
        try json.key("originalUriBaseIds")
        try writeBaseIDs(report.container.archive == nil ? report.container.rootPath : "", json)
        if let coverage = report.contentCoverage {
            // What the content checks read and left unread, as report.json's `contentCoverage` says it.
            try json.key("properties")
            try json.beginObject()
            try json.key("contentCoverage")
            try json.contentCoverage(coverage)
            try json.endObject()
        }
        try json.key("results")
        try json.beginArray()
        for finding in report.findings { try writeResult(finding, catalog: catalog, json) }
        try json.endArray()
        try json.key("tool")
        try json.beginObject()
        try json.key("driver")
        try json.beginObject()
        try json.key("name")
        try json.string(report.tool.name)
        try json.key("rules")
        try json.beginArray()
        for rule in catalog.entries { try writeRule(rule, json) }
        try json.endArray()
        try json.key("version")
        try json.string(report.tool.version)
        try json.endObject()
        try json.endObject()
        try json.endObject()
        try json.endArray()
        try json.key("version")
        try json.string("2.1.0")
        try json.endObject()
        try json.finish()
    }

    private func writeBaseIDs(_ rootPath: String, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key("CONTAINER_ROOT")
        try json.beginObject()
        try json.key("description")
        try text("The root of the audited app data container (Documents, Library, tmp).", json)
        // SARIF wants an absolute URI ending in "/" here; a relative input path has none, nor has a folder inside
        // an archive (the caller passes ""), so it is left out.
        if rootPath.hasPrefix("/") {
            let folder = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
            try json.key("uri")
            try json.string("file://" + SARIFURI.encodePath(folder))
        }
        try json.endObject()
        try json.endObject()
    }

    private func writeRule(_ rule: RuleCatalog.Entry, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key("defaultConfiguration")
        try json.beginObject(compact: true)
        try json.key("level")
        try json.string(Self.level(rule.defaultSeverity))
        try json.endObject()
        try json.key("fullDescription")
        try text(rule.rationale, json)
        try json.key("help")
        try text(rule.fix, json)
        try json.key("id")
        try json.string(rule.id)
        try json.key("name")
        try json.string(Self.name(ofRule: rule.id))
        if !rule.source.isEmpty || !rule.references.isEmpty {
            try json.key("properties")
            try json.beginObject(compact: true)
            if !rule.source.isEmpty {
                try json.key("source")
                try json.string(rule.source)
            }
            if !rule.references.isEmpty {
                try json.key("tags")
                try json.beginArray(compact: true)
                for reference in rule.references { try json.string(reference) }
                try json.endArray()
            }
            try json.endObject()
        }
        try json.key("shortDescription")
        try text(rule.title, json)
        try json.endObject()
    }

    private func writeResult(_ finding: Finding, catalog: RuleCatalog, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key("level")
        try json.string(Self.level(finding.severity))
        try json.key("locations")
        try json.beginArray()
        try json.beginObject(compact: true)
        try json.key("physicalLocation")
        try json.beginObject()
        try json.key("artifactLocation")
        try json.beginObject()
        try json.key("uri")
        try json.string(SARIFURI.relativeReference(finding.path))
        try json.key("uriBaseId")
        try json.string(Self.rootBaseID)
        try json.endObject()
        try json.endObject()
        try json.endObject()
        try json.endArray()
        try json.key("message")
        try text(finding.message, json)
        try json.key("partialFingerprints")
        try json.beginObject(compact: true)
        try json.key("stocktakeFingerprint/v1")
        try json.string(finding.fingerprint)
        try json.endObject()
        try json.key("properties")
        try json.beginObject(compact: true)
        if let bytes = finding.bytes {
            try json.key("bytes")
            try json.int(bytes)
        }
        try json.key("fix")
        try json.string(finding.fix)
        try json.endObject()
        try json.key("ruleId")
        try json.string(finding.rule)
        if let index = catalog.index(of: finding.rule) {
            try json.key("ruleIndex")
            try json.int(index)
        }
        try json.endObject()
    }

    private func text(_ value: String, _ json: JSONStream) throws {
        try json.beginObject(compact: true)
        try json.key("text")
        try json.string(value)
        try json.endObject()
    }

    /// SARIF levels have the same names as our severities.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// `documents-hidden-data` → `DocumentsHiddenData`: SARIF's readable rule name.
    static func name(ofRule id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }
}
