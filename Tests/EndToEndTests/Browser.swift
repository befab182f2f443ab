import Foundation
import TestSupport
import Testing

/// One headless Chromium that loads a given HTML file and prints the DOM it built, for the tests that read
/// pages the way a reader's browser does. Without Chromium those tests are skipped, unless CI (`CI=true` or
/// `STOCKTAKE_REQUIRE_BROWSER=1`, see `OutsideTools`) makes a missing browser a failure.
/// `STOCKTAKE_CHROMIUM` names the browser binary (and only it is tried).
struct Browser {
    static let environment = ProcessInfo.processInfo.environment
    static let requireBrowser = OutsideTools.browserRequired

    static let chromiumPath: String? = {
        // An explicit choice is the only candidate, so a wrong path shows up as a skip (or a failure in CI).
        let candidates =
            environment["STOCKTAKE_CHROMIUM"].map { [$0] } ?? [
                "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
                "/usr/bin/google-chrome-stable",
                "/Applications/Chromium.app/Contents/MacOS/Chromium",
                "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
            ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var chromiumAvailable: Bool { chromiumPath != nil }

    let executable: String
    /// The page to load.
    let page: URL
    /// The browser's profile and captured stderr, removed by `cleanUp()`.
    let scratch: URL

    /// Loads an HTML file where it lies, so its relative links resolve against its folder.
    init(page: URL) throws {
        try self.init { _ in page }
    }

    init(pageAt path: String) throws {
        try self.init(page: URL(fileURLWithPath: path))
    }

    /// Writes `html` into the scratch folder and loads it.
    init(html: String) throws {
        try self.init { scratch in
            let page = scratch.appendingPathComponent("page.html")
            try Data(html.utf8).write(to: page)
            return page
        }
    }

    /// `makePage` gets the scratch folder and returns the page to load.
    private init(makePage: (URL) throws -> URL) throws {
        executable = try #require(
            Self.chromiumPath,
            "CI requires the browser but no Chromium was found (STOCKTAKE_CHROMIUM, or /usr/bin/chromium and the usual places)"
        )
        scratch = URL(fileURLWithPath: try TemporaryTree.makeFolder("browser"), isDirectory: true)
        page = try makePage(scratch)
    }

    func dumpDOM(extraArguments: [String] = []) throws -> String {
        let (status, output, errors) = try run(extraArguments + ["--dump-dom", page.absoluteString])
        #expect(status == 0, "chromium exited with \(status): \(errors.suffix(2000))")
        #expect(output.contains("</html>"), "chromium printed no DOM; stderr: \(errors.suffix(2000))")
        return output
    }

    func screenshot(to path: String) throws {
        _ = try run(["--screenshot=\(path)", "--window-size=1280,2400", "--hide-scrollbars", page.absoluteString])
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--user-data-dir=\(scratch.appendingPathComponent("profile").path)",
            ] + arguments
        let output = Pipe()
        let errorFile = scratch.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorFile)
        defer { try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A safety net, not a timing assertion: a wedged browser must not hang the test run.
        let watchdog = Watchdog(process: process)
        DispatchQueue.global().asyncAfter(deadline: .now() + 180) { watchdog.stopIfRunning() }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self), errorText)
    }
}

/// What the tests read back from a DOM Chromium serialised.
enum DOM {
    /// The `<html …>` start tag as the browser serialised it after scripts ran.
    static func rootTag(_ dom: String) -> String? {
        guard let start = dom.range(of: "<html"), let end = dom.range(of: ">", range: start.upperBound..<dom.endIndex)
        else { return nil }
        return String(dom[start.lowerBound..<end.upperBound])
    }

    /// The first `<title>`: the document's, which the page puts in its head before any SVG title.
    static func documentTitle(_ dom: String) -> String? {
        guard let start = dom.range(of: "<title>"),
            let end = dom.range(of: "</title>", range: start.upperBound..<dom.endIndex)
        else { return nil }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    /// Every `<svg …>` start tag, as serialised.
    static func svgTags(_ dom: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "<svg[^>]*>")
        return pattern.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)).compactMap {
            Range($0.range, in: dom).map { String(dom[$0]) }
        }
    }

    /// A picture of the treemap (`tm-svg`), its pattern holder (`tm-defs`) or a tile (placed with `x`).
    static func isTreemapPart(_ tag: String) -> Bool {
        tag.contains("class=\"tm-") || tag.hasPrefix("<svg x=\"")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when Chromium is installed, or when CI requires it (then a missing browser fails the test).
    static var needsChromium: Self {
        .enabled(
            if: Browser.chromiumAvailable || Browser.requireBrowser,
            "Chromium not found; install it or set STOCKTAKE_CHROMIUM (CI=true or STOCKTAKE_REQUIRE_BROWSER=1 turns this skip into a failure)"
        )
    }
}

/// Lets the delayed safety net reach the process on platforms where `Process` is not marked `Sendable`.
private final class Watchdog: @unchecked Sendable {
    private let process: Process
    init(process: Process) { self.process = process }
    func stopIfRunning() { if process.isRunning { process.terminate() } }
}
