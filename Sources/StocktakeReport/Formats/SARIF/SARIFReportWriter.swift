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
        try json.object {
            try json.field("$schema", Self.schemaURI)
            try json.array("runs") {
                try json.object {
                    try json.field("originalUriBaseIds") {
                        try writeBaseIDs(report.container.archive == nil ? report.container.rootPath : "", json)
                    }
                    if let coverage = report.contentCoverage {
                        // What the content checks read and left unread, as report.json's `contentCoverage` says it.
                        try json.object("properties") {
                            try json.field("contentCoverage") { try json.contentCoverage(coverage) }
                        }
                    }
                    try json.array("results") {
                        for finding in report.findings { try writeResult(finding, catalog: catalog, json) }
                    }
                    try json.object("tool") {
                        try json.object("driver") {
                            try json.field("name", report.tool.name)
                            try json.array("rules") { for rule in catalog.entries { try writeRule(rule, json) } }
                            try json.field("version", report.tool.version)
                        }
                    }
                }
            }
            try json.field("version", "2.1.0")
        }
        try json.finish()
    }

    private func writeBaseIDs(_ rootPath: String, _ json: JSONStream) throws {
        try json.object {
            try json.object("CONTAINER_ROOT") {
                try text("description", "The root of the audited app data container (Documents, Library, tmp).", json)
                // SARIF wants an absolute URI ending in "/" here; a relative input path has none, nor has a folder
                // inside an archive (the caller passes ""), so it is left out.
                if rootPath.hasPrefix("/") {
                    let folder = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
                    try json.field("uri", "file://" + SARIFURI.encodePath(folder))
                }
            }
        }
    }

    private func writeRule(_ rule: RuleDescription, _ json: JSONStream) throws {
        try json.object {
            // SARIF's levels are our severities' names.
            try json.object("defaultConfiguration", compact: true) {
                try json.field("level", rule.defaultSeverity.rawValue)
            }
            try text("fullDescription", rule.rationale, json)
            try text("help", rule.fix, json)
            try json.field("id", rule.id)
            try json.field("name", Self.name(ofRule: rule.id))
            if !rule.source.isEmpty || !rule.references.isEmpty {
                try json.object("properties", compact: true) {
                    if !rule.source.isEmpty { try json.field("source", rule.source) }
                    if !rule.references.isEmpty { try json.field("tags", rule.references) }
                }
            }
            try text("shortDescription", rule.title, json)
        }
    }

    private func writeResult(_ finding: Finding, catalog: RuleCatalog, _ json: JSONStream) throws {
        try json.object {
            try json.field("level", finding.severity.rawValue)
            try json.array("locations") {
                try json.object(compact: true) {
                    try json.object("physicalLocation") {
                        try json.object("artifactLocation") {
                            try json.field("uri", SARIFURI.relativeReference(finding.path))
                            try json.field("uriBaseId", Self.rootBaseID)
                        }
                    }
                }
            }
            try text("message", finding.message, json)
            try json.object("partialFingerprints", compact: true) {
                try json.field("stocktakeFingerprint/v1", finding.fingerprint)
            }
            try json.object("properties", compact: true) {
                try json.field("bytes", ifPresent: finding.bytes)
                try json.field("fix", finding.fix)
            }
            try json.field("ruleId", finding.rule)
            try json.field("ruleIndex", ifPresent: catalog.index(of: finding.rule))
        }
    }

    /// A SARIF message object, `{"text": …}`, as the member `key`.
    private func text(_ key: String, _ value: String, _ json: JSONStream) throws {
        try json.object(key, compact: true) { try json.field("text", value) }
    }

    /// `documents-hidden-data` → `DocumentsHiddenData`: SARIF's readable rule name.
    static func name(ofRule id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }
}
