import Foundation

/// Where the built `stocktake` binary is, worked out from what the test process was started with. A pure
/// function of its inputs, so the Mac's way of starting tests can be tested on Linux.
///
/// How `swift test` starts Swift Testing (SwiftPM's `TestRunner.args(forTestAt:)` in
/// Sources/Commands/Utilities/TestingSupport.swift, and Sources/swiftpm-testing-helper/Entrypoint.swift):
/// - Linux: the test binary itself, `[<build>/StocktakePackageTests.xctest, --testing-library, swift-testing]`,
///   so `stocktake` lies beside `arguments[0]`.
/// - macOS: a helper from the toolchain, `[<toolchain>/usr/libexec/swift/pm/swiftpm-testing-helper,
///   --test-bundle-path, <build>/StocktakePackageTests.xctest/Contents/MacOS/StocktakePackageTests, …,
///   <same path>, --testing-library, swift-testing]`; the helper `dlopen`s the bundle and calls its `main` with
///   its own argv unchanged, so `arguments[0]` is the helper, far from the build folder.
package enum BinaryLookup {
    package struct NotFound: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// The variable that names the binary explicitly (an absolute path); when set it is the only candidate.
    package static let variable = "STOCKTAKE_BINARY"
    package static let name = "stocktake"
    /// How many folders up from a starting point are looked at (the bundle's `Contents/MacOS` to the build folder).
    static let levels = 4

    /// In order: `$STOCKTAKE_BINARY` (absolute, executable; nothing else is tried when it is set); the build
    /// folder holding the test bundle named by `--test-bundle-path` (walking up out of the `.xctest` bundle);
    /// the folder of `arguments[0]` and its parents. Never a `stocktake` found on `PATH`.
    /// `isExecutableFile`: whether a path is an executable regular file. `currentDirectory` makes relative
    /// paths in `arguments` absolute.
    package static func locate(
        arguments: [String], environment: [String: String], currentDirectory: String, isExecutableFile: (String) -> Bool
    ) -> Result<String, NotFound> {
        if let explicit = environment[variable], !explicit.isEmpty {
            guard explicit.hasPrefix("/") else {
                return .failure(
                    NotFound(
                        description:
                            "\(variable)=\(explicit) is not an absolute path; set it to the built binary, e.g. \(variable)=\"$(swift build --show-bin-path)/\(name)\""
                    ))
            }
            guard isExecutableFile(explicit) else {
                return .failure(
                    NotFound(
                        description:
                            "\(variable)=\(explicit) is not an executable file; build first (swift build) or correct it"
                    ))
            }
            return .success(explicit)
        }
        var tried: [String] = []
        var notes: [String] = ["\(variable) is not set"]
        var starts: [(folder: String, levels: Int)] = []
        if let bundle = testBundlePath(arguments) {
            let absolute = absolutePath(bundle, in: currentDirectory)
            // Out of the bundle (…/X.xctest/Contents/MacOS/X) to the folder holding it, which holds `stocktake`.
            let components = absolute.split(separator: "/", omittingEmptySubsequences: true)
            if let bundleIndex = components.lastIndex(where: { $0.hasSuffix(".xctest") }) {
                starts.append(("/" + components[..<bundleIndex].joined(separator: "/"), 1))
            } else {
                starts.append((parent(of: absolute), levels))
            }
        } else {
            notes.append("no --test-bundle-path argument")
        }
        if let first = arguments.first, first.contains("/") {
            starts.append((parent(of: absolutePath(first, in: currentDirectory)), levels))
        } else {
            notes.append("arguments[0] (\(arguments.first ?? "none")) names no folder")
        }
        for start in starts {
            var folder = start.folder
            for _ in 0..<start.levels {
                let candidate = (folder == "/" ? "" : folder) + "/" + name
                if !tried.contains(candidate) {
                    tried.append(candidate)
                    if isExecutableFile(candidate) { return .success(candidate) }
                }
                if folder == "/" { break }
                folder = parent(of: folder)
            }
        }
        let list = tried.isEmpty ? "nothing" : tried.joined(separator: ", ")
        return .failure(
            NotFound(
                description: """
                    no built \(name) binary found (\(notes.joined(separator: "; "))); tried \(list). \
                    Build it (swift build) and set \(variable)="$(swift build --show-bin-path)/\(name)"; \
                    a \(name) on PATH is never used
                    """))
    }

    /// The value after `--test-bundle-path` (or in `--test-bundle-path=VALUE`), as swiftpm-testing-helper gets it.
    static func testBundlePath(_ arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated().dropFirst() {
            if argument == "--test-bundle-path", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--test-bundle-path=") {
                return String(argument.dropFirst("--test-bundle-path=".count))
            }
        }
        return nil
    }

    static func absolutePath(_ path: String, in currentDirectory: String) -> String {
        path.hasPrefix("/")
            ? path : (currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/") + path
    }

    /// The folder holding `path` (`/` for a top-level name), textually: no link is followed.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Whether `path` is a regular file (links followed) that this process may execute.
    package static func isExecutableRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
