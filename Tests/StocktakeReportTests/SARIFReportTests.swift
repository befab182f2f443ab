import Foundation
import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

@Suite struct SARIFReportTests {
    static func document() throws -> [String: Any] {
        let bytes = try FindingsReport.rendered(.sarif)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test(
        .enabled(
            if: ExternalTools.hasJSONSchema || OutsideTools.required,
            "python3 with jsonschema not found (pip install jsonschema); \(OutsideTools.requirementHint)"),
        .enabled(if: ExternalTools.schemasEnabled, ExternalTools.schemasHint))
    func validAgainstTheOASISSchema() throws {
        try #require(ExternalTools.hasJSONSchema, "python3 with jsonschema is not installed")
        for report in [FindingsReport.make(), FindingsReport.with([])] {
            let file = try ExternalTools.temporaryFile("report.sarif", try FindingsReport.rendered(.sarif, report))
            let schema = try ExternalTools.schema("sarif-schema-2.1.0.json")
            let script = """
                import json, sys, jsonschema
                schema = json.load(open(sys.argv[2]))
                jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker()).validate(json.load(open(sys.argv[1])))
                """
            let result = try StocktakeProcess.runCommand(["python3", "-c", script, file, schema])
            #expect(result.status == 0, "SARIF schema validation failed: \(result.stderr)")
        }
    }

    @Test func resultsPointAtTheirRulesAndRelativeLocations() throws {
        let report = FindingsReport.make()
        let document = try Self.document()
        #expect(document["version"] as? String == "2.1.0")
        let runs = try #require(document["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "stocktake")
        #expect(driver["version"] as? String == "0.1.0-test")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIDs = rules.compactMap { $0["id"] as? String }
        #expect(
            Array(ruleIDs.prefix(RuleRegistry.all.count)) == RuleRegistry.all.map { $0.description.id },
            "the whole catalog")
        #expect(ruleIDs.contains("budget-exceeded"), "a finding's unregistered rule is listed too")
        let documents = try #require(rules.first { $0["id"] as? String == "documents-hidden-data" })
        let description = try #require(RuleRegistry.rule(id: "documents-hidden-data")).description
        #expect((documents["shortDescription"] as? [String: Any])?["text"] as? String == description.title)
        #expect((documents["fullDescription"] as? [String: Any])?["text"] as? String == description.rationale)
        #expect((documents["help"] as? [String: Any])?["text"] as? String == description.fix)
        #expect(
            (documents["defaultConfiguration"] as? [String: Any])?["level"] as? String
                == description.defaultSeverity.rawValue)
        #expect(documents["name"] as? String == "DocumentsHiddenData")

        let bases = try #require(run["originalUriBaseIds"] as? [String: [String: Any]])
        let root = try #require(bases["CONTAINER_ROOT"]?["uri"] as? String)
        #expect(root.hasPrefix("file:///") && root.hasSuffix("/"))
        #expect(URL(string: root)?.path == report.container.rootPath, "the base URI decodes to the container root")

        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == report.findings.count)
        for (result, finding) in zip(results, report.findings) {
            let ruleIndex = try #require(result["ruleIndex"] as? Int)
            #expect(ruleIDs[ruleIndex] == finding.rule && result["ruleId"] as? String == finding.rule)
            #expect(result["level"] as? String == finding.severity.rawValue)
            #expect((result["message"] as? [String: Any])?["text"] as? String == finding.message)
            #expect(
                (result["partialFingerprints"] as? [String: String])?["stocktakeFingerprint/v1"] == finding.fingerprint)
            #expect((result["properties"] as? [String: Any])?["bytes"] as? Int64 == finding.bytes)
            let locations = try #require(result["locations"] as? [[String: Any]])
            let artifact = try #require(
                (locations.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])
            #expect(artifact["uriBaseId"] as? String == "CONTAINER_ROOT")
            let uri = try #require(artifact["uri"] as? String)
            #expect(!uri.hasPrefix("/") && !uri.contains(" ") && !uri.contains("#") && !uri.contains("?"))
            #expect(
                uri.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 },
                "non-ASCII and controls are encoded: \(uri)")
            // Resolved against the base, the reference names exactly the finding's path.
            let resolved = try #require(URL(string: uri, relativeTo: URL(string: root)))
            let expected =
                finding.path.isEmpty ? report.container.rootPath + "/" : report.container.rootPath + "/" + finding.path
            #expect(resolved.absoluteURL.path(percentEncoded: false) == expected, "\(uri)")
        }
    }

    @Test func hostileNamesArePercentEncoded() throws {
        let text = String(decoding: try FindingsReport.rendered(.sarif), as: UTF8.self)
        #expect(text.contains("\"uri\":\"Documents/%23frag%20%3Fq%3D%2541%20%C3%BCn%C3%AF.txt\""))
        #expect(text.contains("\"uri\":\"Documents/a%20%22quoted%22%20%26%20%27single%27%0Aline.txt\""))
        #expect(text.contains("\"uri\":\"./\""), "the container root itself")
    }

    @Test func anEmptyRunIsStillComplete() throws {
        let bytes = try FindingsReport.rendered(.sarif, FindingsReport.with([]))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.isEmpty == true)
        let rules = (run["tool"] as? [String: Any]).flatMap { ($0["driver"] as? [String: Any])?["rules"] as? [Any] }
        #expect(rules?.count == RuleRegistry.all.count)
    }
}
