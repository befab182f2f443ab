import Foundation
import TestSupport
import Testing

/// One helper for the system's error text, one way to open a file to read it: the sources are checked,
/// so a new call site cannot quietly start its own.
@Suite struct OnePOSIXLayerTests {
    private static let sources = Repository.path("Sources")

    /// Every Swift source file, relative to Sources/, with its text.
    private static func swiftSources() throws -> [(path: String, text: String)] {
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            (path, try String(contentsOfFile: sources + "/" + path, encoding: .utf8))
        }
    }

    @Test func onlySystemErrorCallsStrerror() throws {
        let callers = try Self.swiftSources().filter { $0.text.contains("strerror(") }.map(\.path)
        #expect(callers == ["StocktakeFiles/SystemError.swift"])
    }

    /// Reading whole files goes through RegularFile (Foundation's readers block on a FIFO and never stop
    /// on /dev/zero).
    @Test func noSourceReadsAFileThroughFoundation() throws {
        let patterns = [
            "contents(atPath:", "Data(contentsOf:", "String(contentsOfFile:", "FileHandle(forReadingAtPath:",
        ]
        let readers = try Self.swiftSources().filter { file in patterns.contains { file.text.contains($0) } }.map(
            \.path)
        #expect(readers.isEmpty, "\(readers)")
    }
}
