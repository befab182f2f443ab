import Foundation
import StocktakeAudit
import StocktakeModel
import TestSupport
import Testing

/// What the nightly job learns of an inbox entry before auditing it, decided as the audit decides it: a container
/// names its app and keeps one signature until something in it changes; an archive is not read, and its file's
/// time is its export time; a note beside the exports is neither.
@Suite struct InputDescriptionTests {
    @Test func aContainerNamesItsAppAndItsSignatureFollowsEveryChange() throws {
        let tree = try TemporaryTree("input-description")
        let copy = tree.path("ChatApp.xcappdata")
        try FileManager.default.copyItem(atPath: AuditTests.sample, toPath: copy)
        let first = InputDescription(path: copy)
        #expect(first.kind == .folder)
        #expect(first.bundleIdentifier == "com.example.chat")
        let signature = try #require(first.signature)
        #expect(InputDescription(path: copy).signature == signature)
        try tree.write("ChatApp.xcappdata/AppData/tmp/new.bin", string: "x")
        #expect(InputDescription(path: copy).signature != signature)
    }

    @Test func anArchiveIsNotReadAndItsFileTimeIsItsExportTime() throws {
        let tree = try TemporaryTree("input-description")
        // A zip's local-file signature is enough to be taken for one: the audit reads it, not the description.
        try tree.write("export.zip", bytes: Array("PK\u{3}\u{4}".utf8) + Array(repeating: 0, count: 60))
        let modified = Date(timeIntervalSince1970: 1_795_000_000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: tree.path("export.zip"))
        let archive = InputDescription(path: tree.path("export.zip"))
        #expect(archive.kind == .archive)
        #expect(archive.bundleIdentifier == nil && archive.containerExportedAt == nil)
        #expect(archive.exportedAt?.seconds == 1_795_000_000)
        #expect(archive.signature != nil)
    }

    @Test func aNoteBesideTheExportsIsNoInput() throws {
        let tree = try TemporaryTree("input-description")
        try tree.write("README.txt", string: "exports land here nightly\n")
        let note = InputDescription(path: tree.path("README.txt"))
        #expect(note.kind == .otherFile)
        #expect(note.signature == nil && note.exportedAt == nil)
    }
}
