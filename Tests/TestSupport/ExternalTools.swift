import Foundation
import Testing

/// External validators (python3 + jsonschema, xmllint, ncdu). A missing tool skips its test with a
/// message, unless CI (`OutsideTools.required`) makes it a failure.
package enum ExternalTools {
    package static let schemas = URL(fileURLWithPath: Repository.path("Tests/Schemas"))

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
