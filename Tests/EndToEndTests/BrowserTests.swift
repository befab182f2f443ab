import Foundation
import StocktakeModel
import StocktakeReport
import Testing
import TestSupport

/// Opens the HTML report of the synthetic container in headless Chromium and reads back the DOM the browser
/// built: hostile names must be inert text, the policy must let our own script run, and the essentials must
/// be there with scripts off. Without Chromium the test is skipped, unless `STOCKTAKE_REQUIRE_BROWSER=1`
/// (CI) makes a missing browser a failure. `STOCKTAKE_CHROMIUM` names the browser binary (and only it is tried);
/// `STOCKTAKE_SCREENSHOT=/path.png` also saves a screenshot for a human to look at.
@Suite struct BrowserTests {
    static let environment = ProcessInfo.processInfo.environment
    static let requireBrowser = environment["STOCKTAKE_REQUIRE_BROWSER"] == "1"

    static let chromiumPath: String? = {
        // An explicit choice is the only candidate, so a wrong path shows up as a skip (or a failure in CI).
        let candidates = environment["STOCKTAKE_CHROMIUM"].map { [$0] } ?? [
            "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
            "/Applications/Chromium.app/Contents/MacOS/Chromium",
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var chromiumAvailable: Bool { chromiumPath != nil }

    @Test(.enabled(
        if: BrowserTests.chromiumAvailable || BrowserTests.requireBrowser,
        "Chromium not found; install it or set STOCKTAKE_CHROMIUM (STOCKTAKE_REQUIRE_BROWSER=1 turns this skip into a failure)"))
    func hostileNamesStayTextAndOurScriptRuns() throws {
        let browser = try Browser()
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM()

        #expect(Self.rootTag(dom) == "<html lang=\"en\" data-enhanced=\"true\">", "the CSP hash let the page's own script run")
        #expect(dom.contains("<button type=\"button\" class=\"sort\">"), "the script made the table headers sortable")
        #expect(Self.documentTitle(dom) == "Stocktake: \(SyntheticContainer.bundleIdentifier)", "no injected handler renamed the page")
        #expect(!dom.contains("pwned</title>"))
        #expect(!dom.contains("<img"), "no image element was injected")
        #expect(dom.components(separatedBy: "<svg").count - 1 == 2, "only the two charts are SVG")
        #expect(dom.contains("&lt;img src=x onerror=document.title='pwned'&gt;.jpg"), "the hostile name is shown as text")
        #expect(dom.contains("&lt;svg onload=document.title='pwned'&gt;"))
        #expect(dom.components(separatedBy: "<script").count - 1 == 1)

        let totals = SyntheticContainer.inventory().totals
        #expect(totals.onDisk.allocatedBytes == 20_156_416)
        #expect(dom.contains("title=\"20,156,416 bytes\">20.2 MB"), "the allocated total is on the page")
        #expect(dom.contains("Documents &amp; Data"))

        if let screenshot = Self.environment["STOCKTAKE_SCREENSHOT"] {
            try browser.screenshot(to: screenshot)
        }
    }

    /// A page whose script differs from the hashed one by a word: the policy must block it, and the page must
    /// still show its essentials, exactly as a reader with scripts off sees it. (Chromium's own switch for
    /// turning scripts off also stops `--dump-dom` from printing anything, so it cannot be used here.)
    @Test(.enabled(
        if: BrowserTests.chromiumAvailable || BrowserTests.requireBrowser,
        "Chromium not found; install it or set STOCKTAKE_CHROMIUM (STOCKTAKE_REQUIRE_BROWSER=1 turns this skip into a failure)"))
    func tamperedScriptIsBlockedAndEssentialsRemain() throws {
        let browser = try Browser { html in
            let tampered = html.replacingOccurrences(of: "\"data-enhanced\", \"true\"", with: "\"data-enhanced\", \"tampered\"")
            #expect(tampered != html, "the script text to tamper with was found")
            return tampered
        }
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM()

        #expect(Self.rootTag(dom) == "<html lang=\"en\">", "a script that does not match the hash must not run")
        #expect(!dom.contains("class=\"sort\""))
        #expect(dom.contains("title=\"20,156,416 bytes\">20.2 MB"))
        #expect(dom.contains("<details open=\"\"><summary class=\"t-row t-root\""), "the tree is open and collapsible without script")
        #expect(dom.contains("Application Support"))
        #expect(dom.contains("Documents/<wbr>Projects/<wbr>Alpha/<wbr>model.sqlite"), "the largest files are listed")
    }

    /// The `<html …>` start tag as the browser serialised it after scripts ran.
    static func rootTag(_ dom: String) -> String? {
        guard let start = dom.range(of: "<html"), let end = dom.range(of: ">", range: start.upperBound..<dom.endIndex) else { return nil }
        return String(dom[start.lowerBound..<end.upperBound])
    }

    static func documentTitle(_ dom: String) -> String? {
        guard let start = dom.range(of: "<title>"), let end = dom.range(of: "</title>", range: start.upperBound..<dom.endIndex)
        else { return nil }
        return String(dom[start.upperBound..<end.lowerBound])
    }
}

/// One headless Chromium run against the synthetic report written to a temporary folder.
private struct Browser {
    let executable: String
    let folder: URL
    let page: URL

    /// `adjust` may change the page before it is written (to simulate tampering).
    init(adjust: (String) -> String = { $0 }) throws {
        executable = try #require(
            BrowserTests.chromiumPath,
            "STOCKTAKE_REQUIRE_BROWSER=1 but no Chromium was found (STOCKTAKE_CHROMIUM, or /usr/bin/chromium and the usual places)")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stocktake-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        page = folder.appendingPathComponent("report.html")
        let report = Report(
            tool: ToolInfo(version: "0.1.0-test"),
            generatedAt: Date(timeIntervalSince1970: SyntheticContainer.generatedAtSecondsSince1970),
            container: SyntheticContainer.description(), inventory: SyntheticContainer.inventory())
        try Data(adjust(HTMLReportWriter().render(report)).utf8).write(to: page)
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
        try? FileManager.default.removeItem(at: folder)
    }

    private func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
        ] + arguments
        let output = Pipe()
        let errorFile = folder.appendingPathComponent("stderr-\(UUID().uuidString).txt")
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

/// Lets the delayed safety net reach the process on platforms where `Process` is not marked `Sendable`.
private final class Watchdog: @unchecked Sendable {
    private let process: Process
    init(process: Process) { self.process = process }
    func stopIfRunning() { if process.isRunning { process.terminate() } }
}
