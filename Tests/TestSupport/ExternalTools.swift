import Foundation
import Testing

/// External validators (python3 + jsonschema, xmllint, ncdu). A missing tool skips its test with a
/// message, unless CI (`OutsideTools.required`) makes it a failure.
package enum ExternalTools {
    /// The official schemas the reports are validated against (OASIS's SARIF 2.1.0 JSON schema, Jenkins' JUnit
    /// `junit-10.xsd`) are other people's files, so they stay out of the repository: `STOCKTAKE_SCHEMAS` names the
    /// folder holding them (`.ci/run` finds the team's copy). Without it their tests skip; under CI they fail.
    package static let schemasFolder: String? = {
        guard let value = ProcessInfo.processInfo.environment["STOCKTAKE_SCHEMAS"], !value.isEmpty else { return nil }
        return value
    }()

    /// For `.enabled(if:)`: the schemas are named, or CI requires them (then a missing one fails the test).
    package static let schemasEnabled = schemasFolder != nil || OutsideTools.required

    package static let schemasHint: Comment =
        "set STOCKTAKE_SCHEMAS to the folder holding sarif-schema-2.1.0.json and junit-10.xsd; \(OutsideTools.requirementHint)"

    /// The path of one schema; throws, saying what is missing, when the variable is unset or the file absent.
    package static func schema(_ name: String) throws -> String {
        guard let folder = schemasFolder else {
            throw RealCorpus.Missing(description: "STOCKTAKE_SCHEMAS is not set: \(name) is needed")
        }
        let path = folder + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            throw RealCorpus.Missing(description: "STOCKTAKE_SCHEMAS (\(folder)) holds no \(name)")
        }
        return path
    }

    /// Whether `python3` on `PATH` has a jsonschema that knows JSON Schema 2020-12 (what check_report.py uses).
    /// Probed once.
    package static let hasJSONSchema: Bool = {
        guard OutsideTools.has("python3") else { return false }
        return
            (try? StocktakeProcess.runCommand(["python3", "-c", "import jsonschema; jsonschema.Draft202012Validator"])
            .status) == 0
    }()

    /// How a test that needs jsonschema says why it was skipped.
    package static let jsonSchemaHint =
        "python3 with jsonschema 4 or later not found (pip install jsonschema); \(OutsideTools.requirementHint)"

    /// Tests/Scripts/check_report.py on `report` against `schema` (a path): valid, and every object's keys sorted.
    /// Without python3's jsonschema, as for every outside oracle: outside CI the check is not made and a known
    /// issue says so (the run shows what it did not check); under CI (`OutsideTools.required`) it is a failure.
    package static func checkReport(_ report: String, schema: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        guard hasJSONSchema else {
            let what =
                "python3's jsonschema is missing: \(report) not checked against \((schema as NSString).lastPathComponent)"
            if OutsideTools.required {
                Issue.record("\(what); CI requires it", sourceLocation: sourceLocation)
            } else {
                withKnownIssue(
                    "an outside oracle is missing; \(OutsideTools.requirementHint)", sourceLocation: sourceLocation
                ) {
                    Issue.record("\(what) (pip install jsonschema)", sourceLocation: sourceLocation)
                }
            }
            return
        }
        let result = try StocktakeProcess.runCommand([
            "/usr/bin/env", "python3", Repository.path("Tests/Scripts/check_report.py"), report, schema,
        ])
        #expect(
            result.status == 0, "check_report.py \(report): \(result.stdout)\(result.stderr)",
            sourceLocation: sourceLocation)
    }

    /// Writes `bytes` to a fresh temporary file named `name` and returns its path.
    package static func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = URL(fileURLWithPath: try TemporaryTree.makeFolder("formats"), isDirectory: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}
