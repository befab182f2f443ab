import Foundation
import StocktakeModel
import StocktakeRendering
import StocktakeReport
import TestSupport
import Testing

/// report.json as a consumer reads it: valid JSON, sorted keys, schema-valid, exact names, integer bytes,
/// every entry listed once in the right array, totals equal to the inventory's.
@Suite struct JSONReportWriterTests {
    static let repository = Repository.root

    /// A name with every character a careless writer gets wrong: newline, quote, backslash, tab, 0x01, 0x1F, DEL.
    static let controlName = "ctl \n \"q\" \\b\\ \t \u{01} \u{1F} \u{7F} end.txt"

    static func render(_ report: Report = SyntheticReport.make()) throws -> [UInt8] {
        try FindingsReport.rendered(.json, report)
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// The synthetic report with extra entries named with control characters, plus an exact 2^53 + 1 size.
    static func controlCharacterReport() -> Report {
        var builder = InventoryBuilder()
        builder.add("Documents/" + controlName, apparentBytes: 77, backup: .included, evidence: .noFlag)
        builder.add("Documents/dir \u{01}\t\"\\\n", type: .directory)
        builder.add("Documents/dir \u{01}\t\"\\\n/inner.txt", apparentBytes: 5, backup: .included, evidence: .noFlag)
        builder.add(
            "Documents/link", type: .symlink, apparentBytes: 3, allocatedBytes: 0, symlinkTarget: "../" + controlName)
        builder.add("Documents/huge.bin", apparentBytes: 9_007_199_254_740_993, allocatedBytes: 4096, flags: .sparse)
        let issues = [
            ScanIssue(
                path: Array(("Documents/" + controlName).utf8), reason: .unreadable, detail: "detail " + controlName)
        ]
        let base = SyntheticContainer.description()
        let container = ContainerDescription(
            inputPath: "/in/" + controlName, rootPath: "/in/" + controlName + "/AppData", layout: base.layout,
            bundleIdentifier: controlName, bundleIdentifierSource: .option,
            metadata: [
                MetadataDocument(
                    path: "AppDataInfo.plist", value: .dictionary([controlName: .string(controlName)]), problem: nil)
            ])
        return Report(
            tool: ToolInfo(version: "0.1.0-test"),
            generatedAt: Date(timeIntervalSince1970: SyntheticContainer.generatedAtSecondsSince1970),
            container: container, inventory: builder.build(issues: issues))
    }

    /// Runs Tests/Scripts/check_report.py (schema + key order, as CI does) on rendered bytes; without python3's
    /// jsonschema, a known issue outside CI and a failure under it (`ExternalTools.checkReport`).
    static func pythonCheck(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tree = try TemporaryTree("json")
        try tree.write("report.json", bytes: bytes)
        try ExternalTools.checkReport(
            tree.path("report.json"), schema: repository + "/Reports/report.schema.json", sourceLocation: sourceLocation
        )
    }

    // MARK: - Whole document

    @Test func parsesWithJSONSerialization() throws {
        let report = try Self.object(try Self.render())
        #expect(report["schemaVersion"] as? Int == 1)
        #expect((report["files"] as? [Any])?.isEmpty == false)
        #expect((report["directories"] as? [Any])?.isEmpty == false)
    }

    @Test func everyObjectHasStrictlySortedKeys() throws {
        for report in [SyntheticReport.make(), Self.controlCharacterReport()] {
            let document = try OrderedJSON.parse(try Self.render(report))
            var objects = 0
            document.forEachObject { location, pairs in
                objects += 1
                for (a, b) in zip(pairs, pairs.dropFirst()) {
                    #expect(
                        a.key.precedesByCodePoints(b.key),
                        "keys out of order at \(location): \(a.key.debugDescription) then \(b.key.debugDescription)")
                }
            }
            #expect(objects > report.inventory.entries.count, "every row is an object")
        }
    }

    @Test(.enabled(if: ExternalTools.hasJSONSchema || OutsideTools.required, "\(ExternalTools.jsonSchemaHint)"))
    func passesTheSchemaAndKeyOrderCheck() throws {
        for report in [SyntheticReport.make(), Self.controlCharacterReport()] {
            try Self.pythonCheck(try Self.render(report))
        }
    }

    /// Keys that come from data (plist keys, metadata paths) must follow code-point order too, even when
    /// Swift's canonical-equivalence ordering disagrees (a decomposed é sorts as U+0065, not as U+00E9).
    @Test func keysFromDataAreSortedByCodePoint() throws {
        let decomposed = "e\u{301}z"
        let precomposed = "\u{E9}a"
        let ascii = "f"
        let base = SyntheticContainer.description()
        let container = ContainerDescription(
            inputPath: base.inputPath, rootPath: base.rootPath, layout: base.layout,
            bundleIdentifier: base.bundleIdentifier,
            bundleIdentifierSource: base.bundleIdentifierSource,
            metadata: [
                MetadataDocument(
                    path: decomposed,
                    value: .dictionary([decomposed: .integer(1), precomposed: .integer(2), ascii: .integer(3)]),
                    problem: nil),
                MetadataDocument(path: precomposed, value: nil, problem: "x"),
            ])
        let report = Report(
            tool: ToolInfo(version: "t"), generatedAt: Date(timeIntervalSince1970: 0), container: container,
            inventory: SyntheticContainer.inventory())
        let bytes = try Self.render(report)
        let metadata = try #require(try OrderedJSON.parse(bytes)["container"]?["metadata"])
        guard case .object(let documents) = metadata else {
            Issue.record("metadata is not an object")
            return
        }
        #expect(
            documents.map(\.key.unicodeScalars).map(Array.init) == [
                Array(decomposed.unicodeScalars), Array(precomposed.unicodeScalars),
            ])
        guard case .object(let values)? = metadata[decomposed]?["value"] else {
            Issue.record("no value")
            return
        }
        #expect(
            values.map { Array($0.key.unicodeScalars) }
                == [decomposed, ascii, precomposed].map { Array($0.unicodeScalars) })
        try Self.pythonCheck(bytes)
    }

    /// The audit writes the rows from the draft while the rules run, then the judgement: the bytes are the
    /// whole report's. A judgement that applied a baseline cannot come after the rows.
    @Test func aDraftStreamedThenJudgedWritesTheWholeReportsBytes() throws {
        for report in [FindingsReport.make(), Self.controlCharacterReport()] {
            var streamed: [UInt8] = []
            var judged = false
            try JSONReportWriter().write(
                report.draft,
                judgedBy: {
                    judged = true
                    return report.judgement
                }
            ) { streamed += $0 }
            #expect(judged)
            #expect(streamed == (try Self.render(report)))
        }
        let late = Judgement(baseline: BaselineSummary(suppressed: 1, stale: []))
        #expect(throws: JSONReportWriter.LateBaseline.self) {
            try JSONReportWriter().write(SyntheticReport.make().draft, judgedBy: { late }) { _ in }
        }
    }

    // MARK: - Names

    @Test func aNameThatIsNotUTF8KeepsItsBytesInRawPath() throws {
        let report = try Self.object(try Self.render())
        let rawBytes = Array("Documents/".utf8) + SyntheticContainer.nonUTF8Name
        let files = try #require(report["files"] as? [[String: Any]])
        let withRaw = files.filter { $0["rawPath"] != nil }
        try #require(withRaw.count == 1, "exactly the one non-UTF-8 file carries rawPath")
        let entry = withRaw[0]
        #expect(entry["path"] as? String == "Documents/f\u{FFFD}\u{FFFD}.db")
        let rawPath = try #require(entry["rawPath"] as? String)
        let decoded = try #require(Data(base64Encoded: rawPath))
        #expect(Array(decoded) == rawBytes)
        // The issue about the same file carries the same pair.
        let issues = try #require(report["issues"] as? [[String: Any]])
        let issue = try #require(issues.first { $0["rawPath"] != nil })
        #expect(issue["path"] as? String == "Documents/f\u{FFFD}\u{FFFD}.db")
        #expect((issue["rawPath"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) == rawBytes)
        // Valid names never get a rawPath.
        let directories = try #require(report["directories"] as? [[String: Any]])
        #expect(directories.allSatisfy { $0["rawPath"] == nil })
    }

    @Test func hostileNamesRoundTripExactly() throws {
        let synthetic = try Self.object(try Self.render())
        let syntheticPaths = Set(
            try #require(synthetic["files"] as? [[String: Any]]).compactMap { $0["path"] as? String })
        for name in [SyntheticContainer.quotedName, SyntheticContainer.bidiName, SyntheticContainer.hostileImageName] {
            #expect(syntheticPaths.contains("Documents/" + name), "\(name.debugDescription)")
        }

        let bytes = try Self.render(Self.controlCharacterReport())
        #expect(!bytes.dropLast().contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x20 }, "raw control byte in the output")
        #expect(!bytes.contains(0x7F), "raw DEL in the output")
        let report = try Self.object(bytes)
        let files = try #require(report["files"] as? [[String: Any]])
        let paths = files.compactMap { $0["path"] as? String }
        #expect(paths.contains { $0.unicodeScalars.elementsEqual(("Documents/" + Self.controlName).unicodeScalars) })
        #expect(
            paths.contains { $0.unicodeScalars.elementsEqual("Documents/dir \u{01}\t\"\\\n/inner.txt".unicodeScalars) })
        let link = try #require(files.first { $0["path"] as? String == "Documents/link" })
        #expect(
            (link["symlinkTarget"] as? String)?.unicodeScalars.elementsEqual(("../" + Self.controlName).unicodeScalars)
                == true)
        let directories = try #require(report["directories"] as? [[String: Any]])
        #expect(
            directories.contains {
                ($0["path"] as? String)?.unicodeScalars.elementsEqual("Documents/dir \u{01}\t\"\\\n".unicodeScalars)
                    == true
            })
        let issue = try #require((report["issues"] as? [[String: Any]])?.first)
        #expect(
            (issue["path"] as? String)?.unicodeScalars.elementsEqual(("Documents/" + Self.controlName).unicodeScalars)
                == true)
        #expect(
            (issue["detail"] as? String)?.unicodeScalars.elementsEqual(("detail " + Self.controlName).unicodeScalars)
                == true)
        let container = try #require(report["container"] as? [String: Any])
        #expect(
            (container["path"] as? String)?.unicodeScalars.elementsEqual(("/in/" + Self.controlName).unicodeScalars)
                == true)
        let metadata = try #require((container["metadata"] as? [String: Any])?["AppDataInfo.plist"] as? [String: Any])
        let value = try #require(metadata["value"] as? [String: Any])
        #expect(value.count == 1)
        #expect(value.keys.first?.unicodeScalars.elementsEqual(Self.controlName.unicodeScalars) == true)
        #expect((value.values.first as? String)?.unicodeScalars.elementsEqual(Self.controlName.unicodeScalars) == true)
    }

    // MARK: - Numbers

    @Test func byteCountsAreIntegerLiterals() throws {
        let integerKeys: Set<String> = [
            "allocatedBytes", "apparentBytes", "files", "modified", "totalAllocatedBytes", "totalApparentBytes",
            "schemaVersion",
            "appleDoubleSidecars", "entriesWithAttributes", "flaggedByAppleDouble", "flaggedByLegacyXattr",
            "flaggedByXattr",
            "appGroupBytes", "bundleBytes", "containerWithoutCachesBytes", "totalBytes",
        ]
        for report in [SyntheticReport.make(), Self.controlCharacterReport()] {
            let document = try OrderedJSON.parse(try Self.render(report))
            let found = document.values(forKeys: integerKeys).filter { $0.location != "$.files" }
            #expect(found.count >= 3 * report.inventory.entries.count, "every row has two sizes and a time")
            for (location, value) in found {
                #expect(value.integerValue != nil, "\(location) is \(value), not an integer literal")
            }
        }
        // Exact values survive: a sparse 10 MB file, and a size a Double cannot hold (2^53 + 1).
        let synthetic = try OrderedJSON.parse(try Self.render())
        let sparse = try #require(
            synthetic["files"]?.items?.first { $0["path"]?.stringValue == "Documents/Exports/sparse.bin" })
        #expect(sparse["apparentBytes"]?.integerValue == 10_000_000)
        #expect(sparse["allocatedBytes"]?.integerValue == 65_536)
        let nested = synthetic["container"]?["metadata"]?["AppDataInfo.plist"]?["value"]?["Nested"]
        #expect(nested?["Count"]?.integerValue == 42)
        #expect(nested?["Ratio"] == .number("0.25"))
        let huge = try OrderedJSON.parse(try Self.render(Self.controlCharacterReport()))
        let entry = try #require(huge["files"]?.items?.first { $0["path"]?.stringValue == "Documents/huge.bin" })
        #expect(entry["apparentBytes"] == .number("9007199254740993"))
    }

    // MARK: - Entries and totals

    @Test func filesAndDirectoriesListEveryEntryOnceInPathOrder() throws {
        for report in [SyntheticReport.make(), Self.controlCharacterReport()] {
            let inventory = report.inventory
            var expectedFiles: [[UInt8]] = []
            var expectedDirectories: [[UInt8]] = []
            inventory.forEachInPathOrder { index, path in
                if inventory.entries[Int(index)].isDirectory {
                    expectedDirectories.append(path)
                } else {
                    expectedFiles.append(path)
                }
            }
            let json = try Self.object(try Self.render(report))
            func paths(_ key: String) throws -> [[UInt8]] {
                try #require(json[key] as? [[String: Any]]).map { row in
                    if let raw = row["rawPath"] as? String, let data = Data(base64Encoded: raw) { return Array(data) }
                    return Array((row["path"] as? String ?? "<missing path>").utf8)
                }
            }
            #expect(try paths("files") == expectedFiles)
            #expect(try paths("directories") == expectedDirectories)
            #expect(expectedDirectories.first == [], "the root comes first, with path \"\"")
            let files = try #require(json["files"] as? [[String: Any]])
            let directories = try #require(json["directories"] as? [[String: Any]])
            #expect(files.allSatisfy { $0["type"] as? String != "directory" })
            #expect(directories.allSatisfy { $0["type"] as? String == "directory" })
            #expect(files.count + directories.count == inventory.entries.count)
        }
    }

    @Test func totalsEqualTheInventorysTotals() throws {
        let report = SyntheticReport.make()
        let totals = report.inventory.totals
        let json = try OrderedJSON.parse(try Self.render(report))
        let written = try #require(json["totals"])
        func total(_ value: OrderedJSON?) -> SizeTotal? {
            guard let files = value?["files"]?.integerValue, let apparent = value?["apparentBytes"]?.integerValue,
                let allocated = value?["allocatedBytes"]?.integerValue
            else { return nil }
            return SizeTotal(files: Int(files), apparentBytes: apparent, allocatedBytes: allocated)
        }
        #expect(total(written["onDisk"]) == totals.onDisk)
        #expect(total(written["directories"]) == totals.directories)
        #expect(total(written["documentsAndData"]) == totals.documentsAndData)
        #expect(total(written["purgeable"]) == totals.purgeable)
        #expect(total(written["transportArtefacts"]) == totals.transportArtefacts)
        for location in Location.allCases {
            #expect(
                total(written["byLocation"]?[location.rawValue]) == totals.byLocation[location] ?? .zero, "\(location)")
        }
        for state in BackupState.allCases {
            #expect(total(written["backup"]?[state.rawValue]) == totals.backup[state] ?? .zero, "\(state)")
        }
        // The numbers are not all zero (a writer that printed .zero everywhere would fail above only by luck).
        #expect(totals.onDisk.allocatedBytes > 0)
        #expect(total(written["onDisk"])?.files == report.inventory.entries.count)
    }
}
