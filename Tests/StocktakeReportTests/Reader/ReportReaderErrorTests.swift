import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeReport

/// Every way a report can fail to read gives a message that names the problem and, where it can, what to do.
@Suite struct ReportReaderErrorTests {
    static func reason(path: String) -> String? {
        checked(failure(path: path), path: path)
    }

    /// Why reading `path` failed; nil when it read.
    static func failure(path: String) -> ReportReadError? {
        do {
            _ = try ReportReader.read(path: path)
            return nil
        } catch {
            return error
        }
    }

    static func checked(_ error: ReportReadError?, path: String) -> String? {
        guard let error else { return nil }
        #expect(error.path == path, "the error names the path as given")
        #expect(error.description == "\(path): \(error.reason)")
        return error.reason
    }

    // MARK: - Finding the file

    @Test func aMissingPathSaysSo() throws {
        let tree = try TemporaryTree("errors")
        #expect(Self.reason(path: tree.path("nowhere/report.json")) == "no such file or folder")
        #expect(Self.reason(path: tree.path("nowhere")) == "no such file or folder")
    }

    @Test func aFolderWithoutReportJSONSaysWhatToGive() throws {
        let tree = try TemporaryTree("errors")
        try tree.write("report.html", string: "<html></html>")
        #expect(
            Self.reason(path: tree.root)
                == "holds no report.json; give a report.json or the folder `stocktake audit` wrote")
    }

    @Test func anUnreadablePathGivesTheSystemsReason() throws {
        let tree = try TemporaryTree("errors")
        try tree.write("plain", string: "x")
        #expect(Self.reason(path: tree.path("plain/report.json")) == "cannot read: Not a directory")
    }

    /// As root, on a thread without root's override of file modes (`FileModes`): the mode binds as for anyone.
    @Test(.enabled(if: FileModes.enforceable || OutsideTools.inCI, FileModes.hint))
    func aFileWithoutReadPermissionGivesTheSystemsReason() throws {
        let tree = try TemporaryTree("errors")
        try tree.write("report.json", string: HandWrittenReport.text())
        chmod(tree.path("report.json"), 0)
        defer { chmod(tree.path("report.json"), 0o644) }
        let file = tree.path("report.json")
        let folder = tree.root
        let (fileError, folderError) = try FileModes.binding { (Self.failure(path: file), Self.failure(path: folder)) }
        #expect(Self.checked(fileError, path: file) == "cannot read: Permission denied")
        #expect(Self.checked(folderError, path: folder) == "cannot read \(file): Permission denied")
    }

    @Test func anEmptyFileIsNotAReport() throws {
        #expect(try HandWrittenReport.failure("") == "is empty, not a report.json")
    }

    // MARK: - Not JSON

    @Test func textThatIsNotJSONSaysWhereAndWhat() throws {
        #expect(
            try HandWrittenReport.failure("hello") == "not valid JSON at line 1, column 1: expected a value, found 'h'")
        #expect(
            try HandWrittenReport.failure("{\n  \"a\": 1,\n  \"b\" 2\n}")
                == "not valid JSON at line 3, column 7: expected ':' after the key, found '2'")
        #expect(
            try HandWrittenReport.failure("{\"a\": 1,}")
                == "not valid JSON at line 1, column 9: expected a key in double quotes, found '}'")
        #expect(
            try HandWrittenReport.failure("{\"a\": 01}")
                == "not valid JSON at line 1, column 8: a number may not start with 0 followed by a digit")
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text() + "x")?.hasPrefix("not valid JSON at line ") == true)
        #expect(
            try HandWrittenReport.failure(bytes: [0x7B, 0x22, 0x61, 0x0A, 0x22, 0x3A, 0x31, 0x7D])?.contains(
                "byte 0x0A inside a string") == true)
        #expect(try HandWrittenReport.failure(#"{"a": "\x"}"#)?.contains("unknown escape '\\x'") == true)
    }

    /// Cut anywhere, a report is not JSON any more, and the message says the file ends too early.
    @Test func aTruncatedReportSaysItEndsEarly() throws {
        let bytes = Array(HandWrittenReport.text().utf8)
        for length in 1..<(bytes.count - 1) {
            let reason = try HandWrittenReport.failure(bytes: Array(bytes[..<length]))
            #expect(
                reason?.hasPrefix("not valid JSON at line ") == true
                    && reason?.contains("the file ends here (truncated?)") == true,
                "cut after \(length) bytes: \(reason ?? "read")")
        }
    }

    // MARK: - JSON but not a report

    @Test func otherJSONIsNotAStocktakeReport() throws {
        let expected =
            "is JSON but not a Stocktake report (it has no `schemaVersion` and `tool`); give the report.json `stocktake audit` wrote"
        #expect(try HandWrittenReport.failure(#"{"name": "package", "version": "1.0"}"#) == expected)
        #expect(
            try HandWrittenReport.failure(#"{"files": 3, "totals": [1, 2]}"#) == expected,
            "keys that do not fit do not hide what the file is")
        #expect(try HandWrittenReport.failure(HandWrittenReport.text(["schemaVersion": nil])) == expected)
        #expect(try HandWrittenReport.failure(HandWrittenReport.text(["tool": nil])) == expected)
        #expect(
            try HandWrittenReport.failure("[1, 2, 3]")
                == "is JSON but not a Stocktake report (its top level is not an object); give the report.json `stocktake audit` wrote"
        )
        #expect(try HandWrittenReport.failure(#""report""#)?.contains("its top level is not an object") == true)
    }

    @Test func aNewerSchemaSaysToUpgrade() throws {
        let newer = "schema version 7 is newer than this stocktake reads (1); upgrade stocktake"
        #expect(try HandWrittenReport.failure(HandWrittenReport.text(["schemaVersion": "7"])) == newer)
        // A later schema may change what keys hold: the version is what the user needs to hear.
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["schemaVersion": "7", "files": #"{"rows": []}"#]))
                == newer)
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["schemaVersion": "0"]))
                == "schema version 0 is not one this stocktake reads (1)")
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["schemaVersion": #""1""#]))
                == "not a report this stocktake reads: `schemaVersion`: expected an integer, found a string")
    }

    // MARK: - A key missing or of the wrong type

    @Test func aMissingKeyIsNamedByItsPath() throws {
        func missing(_ changes: [String: String?]) throws -> String? {
            try HandWrittenReport.failure(HandWrittenReport.text(changes))
        }
        #expect(try missing(["totals": nil]) == "not a report this stocktake reads: `totals` is missing")
        #expect(try missing(["files": nil]) == "not a report this stocktake reads: `files` is missing")
        let rows = """
            [{"allocatedBytes": 1, "apparentBytes": 1, "location": "tmp", "modified": 1, "path": "tmp/a"},
             {"apparentBytes": 1, "location": "tmp", "modified": 1, "path": "tmp/b"}]
            """
        #expect(
            try missing(["files": rows]) == "not a report this stocktake reads: `files[1].allocatedBytes` is missing")
        #expect(
            try missing([
                "directories":
                    #"[{"files": 0, "location": "other", "modified": 0, "path": "", "totalApparentBytes": 0}]"#
            ])
                == "not a report this stocktake reads: `directories[0].totalAllocatedBytes` is missing")
        #expect(
            try missing(["totals": #"{"onDisk": {"files": 1, "apparentBytes": 1}}"#])
                == "not a report this stocktake reads: `totals.onDisk.allocatedBytes` is missing")
        let noTmp = HandWrittenReport.pieces["totals"]!.replacingOccurrences(
            of: #""tmp": \#(HandWrittenReport.total)"#, with: #""future": 1"#)
        #expect(
            try missing(["totals": noTmp]) == "not a report this stocktake reads: `totals.byLocation.tmp` is missing")
        #expect(
            try missing(["tool": #"{"name": "stocktake"}"#])
                == "not a report this stocktake reads: `tool.version` is missing")
        #expect(
            try missing(["findings": #"[{"rule": "r", "severity": "note", "path": "p", "message": "m"}]"#])
                == "not a report this stocktake reads: `findings[0].fingerprint` is missing")
        #expect(
            try missing([
                "groups": #"{"g": {"members": [{"path": "p", "files": 1, "apparentBytes": 1, "allocatedBytes": 1}]}}"#
            ])
                == "not a report this stocktake reads: `groups.g.members[0].id` is missing")
        #expect(
            try missing(["budgets": #"[{"scope": "s", "unit": "bytes", "limit": 1, "actual": 1}]"#])
                == "not a report this stocktake reads: `budgets[0].exceeded` is missing")
        #expect(
            try missing(["container": #"{"bundleIdentifier": null, "path": "/x"}"#])
                == "not a report this stocktake reads: `container.layout` is missing")
    }

    /// A row that lacks several figures names the first it lacks, in the order a row's figures are listed; a
    /// `rawPath` alone does not stand in for `path`.
    @Test func aRowMissingSeveralKeysNamesTheFirst() throws {
        func missing(_ section: String, _ row: String) throws -> String? {
            try HandWrittenReport.failure(HandWrittenReport.text([section: "[\(row)]"]))
        }
        let prefix = "not a report this stocktake reads: "
        #expect(try missing("files", #"{"path": "a"}"#) == prefix + "`files[0].apparentBytes` is missing")
        #expect(
            try missing("files", #"{"apparentBytes": 1, "allocatedBytes": 1, "path": "a"}"#)
                == prefix + "`files[0].modified` is missing")
        #expect(
            try missing(
                "files",
                #"{"allocatedBytes": 1, "apparentBytes": 1, "location": "tmp", "modified": 1, "rawPath": "YQ=="}"#)
                == prefix + "`files[0].path` is missing")
        #expect(
            try missing("directories", #"{"files": 1, "path": "", "totalAllocatedBytes": 1}"#)
                == prefix + "`directories[0].totalApparentBytes` is missing")
        #expect(
            try missing("directories", #"{"path": "", "totalAllocatedBytes": 1, "totalApparentBytes": 1}"#)
                == prefix + "`directories[0].files` is missing")
        // A file row's `files` and a folder's own byte counts are not asked for.
        let folder = #"{"allocatedBytes": 1, "files": 0, "location": "other", "modified": 0, "path": "", "#
        #expect(
            try HandWrittenReport.read(
                HandWrittenReport.text([
                    "directories": "[\(folder)\"totalAllocatedBytes\": 7, \"totalApparentBytes\": 5}]"
                ])
            ).directories.size(at: 0) == SizeTotal(files: 0, apparentBytes: 5, allocatedBytes: 7))
    }

    @Test func aValueOfTheWrongTypeIsNamedByItsPath() throws {
        func reason(_ row: String) throws -> String? {
            try HandWrittenReport.failure(HandWrittenReport.text(fileRow: row))
        }
        let prefix = "not a report this stocktake reads: "
        #expect(
            try reason(
                #"{"allocatedBytes": 1, "apparentBytes": "12", "location": "tmp", "modified": 1, "path": "tmp/a"}"#)
                == prefix + "`files[0].apparentBytes`: expected an integer, found a string")
        #expect(
            try reason(
                #"{"allocatedBytes": 1.5, "apparentBytes": 1, "location": "tmp", "modified": 1, "path": "tmp/a"}"#)
                == prefix + "`files[0].allocatedBytes`: expected an integer, found 1.5")
        #expect(
            try reason(
                #"{"allocatedBytes": 1, "apparentBytes": 1, "location": "cache", "modified": 1, "path": "tmp/a"}"#)
                == prefix
                + "`files[0].location`: 'cache' is not a location (documents, applicationSupport, caches, tmp, preferences, libraryOther, systemData, other)"
        )
        #expect(
            try reason(#"{"allocatedBytes": 1, "apparentBytes": 1, "location": "tmp", "modified": 1, "path": 7}"#)
                == prefix + "`files[0].path`: expected a string, found a number")
        #expect(try reason(#"[1]"#) == prefix + "`files[0]`: expected an object, found an array")
        #expect(
            try reason(
                #"{"allocatedBytes": 1, "apparentBytes": 1, "location": "tmp", "modified": 1, "path": "a", "rawPath": "*!"}"#
            )
                == prefix + "`files[0].rawPath`: not base64")
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["files": "{}"])) == prefix
                + "`files`: expected an array, found an object")
        #expect(
            try HandWrittenReport.failure(
                HandWrittenReport.text([
                    "findings":
                        #"[{"fingerprint": "f", "message": "m", "path": "p", "rule": "r", "severity": "fatal"}]"#
                ]))
                == prefix + "`findings[0].severity`: 'fatal' is not a severity (error, warning, note)")
        #expect(
            try HandWrittenReport.failure(
                HandWrittenReport.text([
                    "budgets": #"[{"actual": 1, "exceeded": "yes", "limit": 1, "scope": "total", "unit": "files"}]"#
                ]))
                == prefix + "`budgets[0].exceeded`: expected true or false, found a string")
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["groups": #"{"chats": {"members": [{"id": 1}]}}"#]))
                == prefix + "`groups.chats.members[0].id`: expected a string, found a number")
    }

    @Test func integersOutside64BitsAreRefusedNotWrapped() throws {
        func row(_ number: String) -> String {
            HandWrittenReport.text(
                fileRow:
                    #"{"allocatedBytes": \#(number), "apparentBytes": 1, "location": "tmp", "modified": 1, "path": "tmp/a"}"#
            )
        }
        #expect(
            try HandWrittenReport.failure(row("99999999999999999999"))
                == "not a report this stocktake reads: `files[0].allocatedBytes`: expected an integer of at most 64 bits, found 99999999999999999999"
        )
        #expect(try HandWrittenReport.failure(row("9223372036854775808"))?.contains("at most 64 bits") == true)
        #expect(try HandWrittenReport.read(row("9223372036854775807")).files.allocatedBytes == [Int64.max])
        #expect(try HandWrittenReport.read(row("-0")).files.allocatedBytes == [0])
    }

    /// Issue 10, F2: a negative size made every delta on it wrap. Sizes and counts are refused below zero,
    /// wherever they are, by key; a modification time may be (before 1970).
    @Test func negativeSizesAndCountsAreRefusedByKey() throws {
        func refused(_ key: String, _ value: String) -> String {
            "not a report this stocktake reads: `\(key)`: is \(value); sizes and counts are never negative"
        }
        let minimum = "-9223372036854775808"
        let file =
            #"{"allocatedBytes": \#(minimum), "apparentBytes": 1, "location": "tmp", "modified": 1, "path": "tmp/a"}"#
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(fileRow: file))
                == refused("files[0].allocatedBytes", minimum))
        let totals = try #require(HandWrittenReport.pieces["totals"]).replacingOccurrences(
            of: #""onDisk": \#(HandWrittenReport.total)"#,
            with: #""onDisk": {"allocatedBytes": \#(minimum), "apparentBytes": 0, "files": 0}"#)
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["totals": totals]))
                == refused("totals.onDisk.allocatedBytes", minimum))
        let budget = #"[{"actual": -1, "exceeded": false, "limit": 1, "scope": "total", "unit": "files"}]"#
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["budgets": budget]))
                == refused("budgets[0].actual", "-1"))
        let group =
            #"{"chats": {"members": [{"allocatedBytes": -5, "apparentBytes": 0, "files": 0, "id": "a", "path": "p"}]}}"#
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["groups": group]))
                == refused("groups.chats.members[0].allocatedBytes", "-5"))
        let beforeEpoch =
            #"{"allocatedBytes": 1, "apparentBytes": 1, "location": "tmp", "modified": -86400, "path": "tmp/a"}"#
        #expect(try HandWrittenReport.read(HandWrittenReport.text(fileRow: beforeEpoch)).files.count == 1)
    }
}
