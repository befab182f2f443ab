import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeReport

/// The reader takes any JSON a report may be written as: escapes, keys in any order, keys of later versions,
/// deep metadata; and refuses nesting no report has without exhausting anything.
@Suite struct ReportReaderJSONTests {
    static func row(path: String, extra: String = "") -> String {
        #"{"allocatedBytes": 4096, "apparentBytes": 10, "location": "documents", "modified": 1, "path": \#(path)\#(extra)}"#
    }

    static func readPath(_ jsonString: String) throws -> [UInt8] {
        let snapshot = try HandWrittenReport.read(HandWrittenReport.text(fileRow: row(path: jsonString)))
        try #require(snapshot.files.count == 1)
        return Array(snapshot.files.pathBytes(at: 0))
    }

    @Test func aHandWrittenReportReadsEveryKey() throws {
        let snapshot = try HandWrittenReport.read(HandWrittenReport.text())
        #expect(snapshot.files.count == 2)
        #expect(snapshot.files.path(at: 1) == "Documents/b.sqlite")
        #expect(snapshot.files.kinds == [.json, .sqlite])
        #expect(snapshot.files.apparentBytes == [1000, 4000])
        #expect(snapshot.files.modified == [100, 200])
        #expect(snapshot.directories.count == 2)
        #expect(snapshot.directories.size(at: 1) == SizeTotal(files: 2, apparentBytes: 9096, allocatedBytes: 12288))
        #expect(snapshot.directories.locations == [.other, .documents])
        #expect(snapshot.findings.map(\.bytes) == [4096])
        #expect(snapshot.findings.first?.severity == .warning)
        #expect(
            snapshot.groups["chats"] == [
                .init(
                    id: "42", path: "Documents/42", size: SizeTotal(files: 1, apparentBytes: 1000, allocatedBytes: 4096)
                )
            ])
        #expect(
            snapshot.budgets == [
                .init(scope: "total", unit: "allocatedBytes", limit: 4096, actual: 8192, exceeded: true)
            ])
        #expect(snapshot.provenance.appVersion == "3.1")
        #expect(snapshot.provenance.toolVersion == "1.0.0")
        #expect(snapshot.totals.purgeable == SizeTotal(files: 2, apparentBytes: 5000, allocatedBytes: 8192))
    }

    // MARK: - Strings

    @Test func everyEscapeDecodesToItsExactBytes() throws {
        #expect(try Self.readPath(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == Array("a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti".utf8))
        #expect(try Self.readPath(#""\u0041\u00e9\u20AC\u0000""#) == Array("Aé€\u{0}".utf8))
        // A surrogate pair is one character (U+1F600), four bytes of UTF-8.
        #expect(try Self.readPath(#""smile \ud83d\ude00.png""#) == Array("smile 😀.png".utf8))
        #expect(try Self.readPath(#""\uD83D\uDE00""#) == [0xF0, 0x9F, 0x98, 0x80])
        // Half a pair cannot be UTF-8: it reads as U+FFFD, like other decoders.
        #expect(try Self.readPath(#""x\ud800y""#) == Array("x\u{FFFD}y".utf8))
        #expect(try Self.readPath(#""x\udc00""#) == Array("x\u{FFFD}".utf8))
        #expect(try Self.readPath(#""\ud800\u0041""#) == Array("\u{FFFD}A".utf8))
        // Text that is not ASCII needs no escape at all.
        #expect(try Self.readPath(#""Documents/Привет 日本.txt""#) == Array("Documents/Привет 日本.txt".utf8))
    }

    /// A long name with escapes throughout outgrows the scanner's first buffer for decoded strings: every byte
    /// still arrives, in order, and a row after it reads its own path.
    @Test func aLongEscapedPathDecodesWhole() throws {
        let pieces = (0..<2000).map { $0 % 3 == 0 ? #"\""# : $0 % 3 == 1 ? "ab" : #"\u00e9"# }
        let expected = (0..<2000).map { $0 % 3 == 0 ? "\"" : $0 % 3 == 1 ? "ab" : "é" }.joined()
        let rows = [Self.row(path: "\"\(pieces.joined())\""), Self.row(path: #""Documents/next""#)]
        let snapshot = try HandWrittenReport.read(HandWrittenReport.text(["files": "[\(rows.joined(separator: ","))]"]))
        #expect(snapshot.files.path(at: 0) == expected)
        #expect(snapshot.files.path(at: 1) == "Documents/next")
    }

    /// Plain runs of every length (none, at the start, at the end, long) between escapes of every kind: the
    /// scanner copies each run at once and decodes what lies between, so every byte must arrive in its place.
    @Test func plainRunsBetweenEscapesArriveWhole() throws {
        var random = SeededGenerator(seed: 43)
        let plain = Array("abcXYZ019 ./-_".unicodeScalars)
        let escapes: [(json: String, text: String)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"), (#"\n"#, "\n"),
            (#"\r"#, "\r"), (#"\t"#, "\t"), (#"\u0000"#, "\u{0}"), (#"\u00E9"#, "é"), (#"\u65e5"#, "日"),
            (#"\ud83d\ude00"#, "😀"), ("é日😀", "é日😀"),
        ]
        for _ in 0..<200 {
            var json = ""
            var text = ""
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                var run = ""
                for _ in 0..<Int.random(in: 0...40, using: &random) {
                    run.unicodeScalars.append(plain.randomElement(using: &random)!)
                }
                let escape = escapes.randomElement(using: &random)!
                json += run + escape.json
                text += run + escape.text
            }
            let tail = Bool.random(using: &random) ? "tail" : ""
            #expect(try Self.readPath("\"\(json)\(tail)\"") == Array((text + tail).utf8), "\(json)")
        }
    }

    @Test func rawPathHoldsTheExactBytesWhateverTheOrder() throws {
        let bytes: [UInt8] = [0x66, 0xFF, 0xFE, 0x2E, 0x64, 0x62]
        let raw = Base64.encode(bytes)
        #expect(try Self.readPath(#""f\ufffd\ufffd.db", "rawPath": "\#(raw)""#) == bytes)
        // rawPath first: the later `path` (U+FFFD) must not replace it.
        let row =
            #"{"rawPath": "\#(raw)", "path": "f\ufffd\ufffd.db", "modified": 1, "location": "documents", "apparentBytes": 1, "allocatedBytes": 0}"#
        #expect(
            try HandWrittenReport.read(HandWrittenReport.text(fileRow: row)).files.pathBytes(at: 0).elementsEqual(bytes)
        )
        #expect(Base64.decode(Array("Zg==".utf8)) == [0x66] && Base64.decode(Array("Zm8=".utf8)) == [0x66, 0x6F])
        #expect(Base64.decode(Array("Zm9v".utf8)) == Array("foo".utf8) && Base64.decode(Array("".utf8)) == [])
        #expect(
            Base64.decode(Array("Zg=a".utf8)) == nil && Base64.decode(Array("Z===".utf8)) == nil
                && Base64.decode(Array("Zm9".utf8)) == nil)
    }

    @Test func escapedKeysAreKeysToo() throws {
        let row =
            #"{"allocatedBytes": 1, "\u0061pparentBytes": 2, "location": "tmp", "modified": 3, "p\u0061th": "tmp/x"}"#
        let snapshot = try HandWrittenReport.read(HandWrittenReport.text(fileRow: row))
        #expect(snapshot.files.path(at: 0) == "tmp/x")
        #expect(snapshot.files.apparentBytes == [2])
    }

    @Test func aKindThisVersionDoesNotKnowReadsAsUnknown() throws {
        let snapshot = try HandWrittenReport.read(
            HandWrittenReport.text(fileRow: Self.row(path: #""a.avif""#, extra: #", "kind": "avif""#)))
        #expect(snapshot.files.kinds == [.unknown])
        let noKind = try HandWrittenReport.read(HandWrittenReport.text(fileRow: Self.row(path: #""a""#)))
        #expect(noKind.files.kinds == [.unknown])
    }

    // MARK: - Forward compatibility

    @Test func unknownKeysAnywhereAreSkipped() throws {
        let plain = try HandWrittenReport.read(HandWrittenReport.text())
        let extra = #""zzFuture": {"nested": [1, 2.5e-3, -4E+2, true, false, null, {"deep": ["x\"y", {}]}], "n": -0.0}"#
        let pieces = HandWrittenReport.pieces
        // In every object: rows, totals and their maps of ids, metadata, findings, budgets, the tool.
        func adding(_ key: String) -> String { pieces[key]!.replacingOccurrences(of: "{", with: "{" + extra + ", ") }
        // Groups are a map of names: the unknown keys go inside a group and its members.
        let groups = pieces["groups"]!.replacingOccurrences(of: #""members""#, with: extra + #", "members""#)
            .replacingOccurrences(of: #"{"allocatedBytes""#, with: "{" + extra + #", "allocatedBytes""#)
        let text = HandWrittenReport.text([
            "aaNewSection": "[[], {}, \"\", 0]", "files": adding("files"), "directories": adding("directories"),
            "totals": adding("totals"), "findings": adding("findings"), "budgets": adding("budgets"), "groups": groups,
            "container": adding("container"), "tool": adding("tool"),
        ])
        #expect(text.components(separatedBy: "zzFuture").count > 30, "the unknown key is everywhere")
        let snapshot = try HandWrittenReport.read(text)
        #expect(snapshot.totals == plain.totals)
        #expect(snapshot.files.count == plain.files.count && snapshot.files.apparentBytes == plain.files.apparentBytes)
        #expect(snapshot.directories.count == plain.directories.count)
        #expect(snapshot.findings == plain.findings)
        #expect(snapshot.budgets == plain.budgets)
        #expect(snapshot.groups["chats"] == plain.groups["chats"])
        #expect(snapshot.groups.count == 1)
        #expect(
            snapshot.provenance
                == ReportSnapshot.Provenance(
                    source: snapshot.provenance.source, schemaVersion: 1, toolName: "stocktake", toolVersion: "1.0.0",
                    generatedAt: "2026-11-21T02:00:00Z", bundleIdentifier: "com.example.app", appVersion: "3.1",
                    containerPath: "App.xcappdata", layout: "xcappdata"))
    }

    // MARK: - Provenance

    @Test func appVersionFallsBackToTheBundlesShortVersion() throws {
        func container(value: String) -> String {
            #"{"bundleIdentifier": null, "layout": "bare", "metadata": {"AppDataInfo.plist": {"value": \#(value)}, "Other.plist": {"problem": "x"}}, "path": "p"}"#
        }
        let bundle =
            #"{"infoPlist": {"CFBundleShortVersionString": "5.0", "Deep": [[[{"a": 1.5}]]]}, "path": "/A.app"}"#
        let fromBundle = try HandWrittenReport.read(
            HandWrittenReport.text([
                "container": container(value: #"{"XCExecutableVersion": 14}"#), "appBundle": bundle,
            ]))
        #expect(fromBundle.provenance.appVersion == "5.0", "a version that is not a string is not used")
        #expect(fromBundle.provenance.bundleIdentifier == nil)
        #expect(fromBundle.provenance.layout == "bare")
        let both = try HandWrittenReport.read(
            HandWrittenReport.text([
                "container": container(value: #"{"XCExecutableVersion": "4.2"}"#), "appBundle": bundle,
            ]))
        #expect(both.provenance.appVersion == "4.2", "AppDataInfo.plist comes first")
        let neither = try HandWrittenReport.read(
            HandWrittenReport.text(["container": container(value: "[1, 2]"), "appBundle": #"{"infoPlist": null}"#]))
        #expect(neither.provenance.appVersion == nil)
    }

    // MARK: - Hostile input

    @Test func nestingDeeperThanAnyReportIsAnErrorNotACrash() throws {
        let depth = 100_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let expected = "values nest deeper than 512 levels, more than a report ever holds"
        for changes in [
            [
                "container":
                    #"{"bundleIdentifier": null, "layout": "bare", "metadata": {"AppDataInfo.plist": {"value": \#(deep)}}, "path": "p"}"#
            ],
            ["files": "[" + Self.row(path: #""a""#, extra: #", "future": \#(deep)"#) + "]"],
            ["zzUnknown": deep],
            ["appBundle": #"{"infoPlist": {"a": \#(deep)}}"#],
        ] {
            let reason = try HandWrittenReport.failure(HandWrittenReport.text(changes))
            #expect(
                reason?.hasPrefix("not valid JSON at line ") == true && reason?.hasSuffix(expected) == true,
                "\(reason ?? "read")")
        }
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(
            try HandWrittenReport.failure(HandWrittenReport.text(["zzUnknown": objects]))?.hasSuffix(expected) == true)
        // Nesting within the limit is just skipped.
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(try HandWrittenReport.read(HandWrittenReport.text(["zzUnknown": fine])).files.count == 2)
    }

    /// A Mac's worker threads have 512 KB stacks, and the diff reads its two reports on them: skipping the deepest
    /// nesting allowed, and values of every shape, fits in one.
    @Test func skippingFitsAWorkerThreadsStack() throws {
        final class Outcome: @unchecked Sendable { var files: Int? }
        let deepest = String(repeating: #"{"a": ["#, count: 255) + String(repeating: "]}", count: 255)
        let mixed = #"{"a": [1, {"b": [true, false, null, "x\"y", -1.5e3, 0]}, [], {}], "c": {"d": [[[]]]}}"#
        let text = HandWrittenReport.text(["zzDeep": deepest, "zzMixed": mixed])
        let outcome = Outcome()
        SideBySide.onOwnThreads(1, stackSize: 512 << 10) { _ in
            outcome.files = try? HandWrittenReport.read(text).files.count
        }
        #expect(outcome.files == 2)
    }

    /// A FIFO named report.json would block the reader until a writer came (forever, on a hostile share),
    /// and a link to /dev/zero would be read until memory ran out: both are refused at once, by name.
    @Test func aFIFOOrADeviceIsRefusedNotRead() throws {
        let tree = try TemporaryTree("pipe")
        try tree.mkfifo("fifo/report.json")
        try tree.symlink("zero/report.json", to: "/dev/zero")
        let fifo = try #require(throws: ReportReadError.self) { try ReportReader.read(path: tree.path("fifo")) }
        #expect(
            fifo.description
                == "\(tree.path("fifo")): cannot read \(tree.path("fifo/report.json")): it is a FIFO (named pipe), not a regular file"
        )
        let zero = try #require(throws: ReportReadError.self) {
            try ReportReader.read(path: tree.path("zero/report.json"))
        }
        #expect(zero.reason == "cannot read: it is a device, not a regular file")
    }
}
