// swift-tools-version: 6.1
// Stocktake: inventory and policy audit of exported iOS app data containers.
import PackageDescription

let package = Package(
    name: "Stocktake",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "stocktake", targets: ["stocktake"])
    ],
    // The default build is SQLite only (nothing to fetch or build beyond the three packages below). `--traits
    // PostgreSQL` adds the shared history on a PostgreSQL server (`--history postgresql://…`), through PostgresNIO.
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "A shared history on a PostgreSQL server (--history postgresql://…), through PostgresNIO."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // The command-line front end (docs/design.md, "Dependencies", says why each package is here).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // stocktake.yml: a YAML parser that reports line numbers (for config errors users can act on).
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // SHA-256 for the duplicate finder: CryptoKit on macOS, BoringSSL-backed on Linux.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // PostgreSQL's wire protocol in pure Swift (the Swift Server Workgroup's client; no libpq to install), and the
        // TLS it negotiates with: only with the PostgreSQL trait, and not even fetched without it.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Pure values: locations, backup states, entries, the immutable inventory, and the one classifier (a path's
        // place, backup by place, kind by name) that the walk and InventoryBuilder share. No I/O.
        .target(name: "StocktakeModel"),
        // The one POSIX layer for opening files (regular files only, bounded, never blocking) and errno text.
        .target(name: "StocktakeFiles"),
        // What Glibc does not expose (extended attributes).
        .target(name: "CStocktakeSystem"),
        // The system's SQLite, for the nightly history store and device backups' Manifest.db.
        // macOS: the SDK's sqlite3.h and libsqlite3.tbd.
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        // libarchive's calls as function-pointer types, for containers read from zip and tar archives in place (never
        // extracted). Nothing is linked: the system's library is loaded when the first archive is read (LibArchive).
        .systemLibrary(name: "CLibArchive"),
        // A small wrapper over SQLite: connections (read-write, or read-only and immutable), statements, bound values.
        .target(name: "StocktakeSQLite", dependencies: ["CSQLite3", "StocktakeModel"]),
        // Bounded property-list parsing (binary and XML, never Foundation's) and the meter that bounds decoded work.
        .target(name: "StocktakePropertyLists", dependencies: ["StocktakeModel", "StocktakeFiles"]),
        // The content checks: a file's kind from its bytes, AppleDouble sidecars, the stores apps keep (cookies, URL
        // cache, SQLite) and the secret judgement over what they hold. Reads files; knows nothing of the walk.
        .target(
            name: "StocktakeContent",
            dependencies: ["StocktakeModel", "StocktakeFiles", "StocktakePropertyLists", "StocktakeSQLite"]),
        // Sources (folders, simulators, archives) walked in parallel into an inventory: layout, backup evidence,
        // duplicates; each file's kind and secrets come from StocktakeContent.
        .target(
            name: "StocktakeScan",
            dependencies: [
                "StocktakeModel", "StocktakeFiles", "StocktakePropertyLists", "StocktakeContent", "CStocktakeSystem",
                "CLibArchive", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Device backups (Finder, iTunes, idevicebackup2): Manifest.db read-only, MBFile records decoded, the apps
        // listed, one app's domain as an inventory, and a backup's evidence laid over a walked container.
        .target(
            name: "StocktakeBackup",
            dependencies: [
                "StocktakeModel", "StocktakeFiles", "StocktakeScan", "StocktakeSQLite", "StocktakePropertyLists",
                "StocktakeContent",
            ]),
        // The policy rules: one small type per rule, a registry, findings with stable fingerprints.
        .target(
            name: "StocktakePolicy",
            dependencies: [
                "StocktakeModel", "StocktakeFiles", .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // What every page and file writer shares: escaping and visible text, the HTML page head and pieces, the
        // streamed JSON writer, report dates, and atomic file output. The pages' style sheets and script are files of
        // their own, compiled in as bytes (`PackageResources`), so the binary stays one file.
        .target(
            name: "StocktakeRendering", dependencies: ["StocktakeModel", "StocktakeFiles", "CStocktakeSystem"],
            resources: [
                .embedInCode("Style/report.css"), .embedInCode("Style/report.js"), .embedInCode("Style/treemap.css"),
                .embedInCode("Style/hatch.svg"),
            ]),
        // The report document, its writers (JSON, HTML, SARIF, JUnit, Markdown, GitHub, ncdu) and report.json's
        // reader, beside its writer with the one table of keys both use.
        .target(
            name: "StocktakeReport",
            dependencies: ["StocktakeModel", "StocktakeFiles", "StocktakePolicy", "StocktakeRendering"]),
        // Two reports compared: the comparison, the gates and the diff's writers.
        .target(
            name: "StocktakeDiff",
            dependencies: ["StocktakeModel", "StocktakePolicy", "StocktakeRendering", "StocktakeReport"],
            resources: [.embedInCode("Style/diff.css"), .embedInCode("Style/diff-treemap.css")]),
        // The audit use case: source → scan → inventory → report files. What the CLI calls.
        .target(
            name: "StocktakeAudit",
            dependencies: [
                "StocktakeModel", "StocktakeFiles", "StocktakeScan", "StocktakePolicy", "StocktakeRendering",
                "StocktakeReport",
                "StocktakeBackup", "StocktakePropertyLists", "StocktakeContent",
            ]),
        // The history: one row per run, its schema for SQLite and PostgreSQL alike, the SQLite store beside one
        // machine's reports, and what is made of it (`stocktake history`'s JSON, the metrics file).
        .target(
            name: "StocktakeHistory",
            dependencies: [
                "StocktakeModel", "StocktakeFiles", "StocktakePolicy", "StocktakeRendering", "StocktakeReport",
                "StocktakeSQLite",
            ]),
        // The history on a PostgreSQL server that many machines share (the PostgreSQL trait only).
        .target(
            name: "StocktakePostgres",
            dependencies: [
                "StocktakeHistory", "StocktakeModel",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // The nightly job (every inbox container audited, diffed, recorded, indexed; under a lock) and the index page
        // over every app, from whichever history it is given.
        .target(
            name: "StocktakeNightly",
            dependencies: [
                "StocktakeModel", "StocktakeFiles", "StocktakePolicy", "StocktakeRendering", "StocktakeReport",
                "StocktakeDiff", "StocktakeHistory", "StocktakeAudit",
            ],
            resources: [.embedInCode("Style/index.css")]),
        .executableTarget(
            name: "stocktake",
            dependencies: [
                "StocktakeModel", "StocktakeFiles", "StocktakePolicy", "StocktakeRendering", "StocktakeReport",
                "StocktakeDiff",
                "StocktakeAudit", "StocktakeNightly", "StocktakeScan", "StocktakeBackup", "StocktakeHistory",
                "StocktakePostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["StocktakeModel", "CStocktakeSystem"], path: "Tests/TestSupport"),
        // The executable's own pieces (what the CLI prints, exit statuses), reached with `@testable import stocktake`.
        .testTarget(name: "stocktakeTests", dependencies: ["stocktake", "StocktakeModel"]),
        .testTarget(name: "StocktakeFilesTests", dependencies: ["StocktakeFiles", "TestSupport"]),
        .testTarget(name: "StocktakeModelTests", dependencies: ["StocktakeModel", "TestSupport"]),
        .testTarget(name: "StocktakeRenderingTests", dependencies: ["StocktakeRendering", "TestSupport"]),
        .testTarget(name: "StocktakePolicyTests", dependencies: ["StocktakePolicy", "StocktakeModel", "TestSupport"]),
        .testTarget(
            name: "StocktakeScanTests",
            dependencies: [
                "StocktakeScan", "StocktakePropertyLists", "StocktakeContent", "StocktakeModel", "StocktakeFiles",
                "TestSupport", "CStocktakeSystem",
            ]),
        .testTarget(
            name: "StocktakeReportTests",
            dependencies: [
                "StocktakeReport", "StocktakeRendering", "StocktakeModel", "StocktakePolicy", "StocktakeAudit",
                "TestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "StocktakeDiffTests",
            dependencies: [
                "StocktakeDiff", "StocktakeReport", "StocktakeRendering", "StocktakeModel", "StocktakePolicy",
                "TestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "StocktakeNightlyTests",
            dependencies: [
                "StocktakeNightly", "StocktakeDiff", "StocktakeModel", "StocktakePolicy", "StocktakeReport",
                "StocktakeRendering", "StocktakeSQLite", "StocktakeHistory", "TestSupport",
            ]),
        // The history's contract, held against SQLite always and against a PostgreSQL server with the trait.
        .testTarget(
            name: "StocktakeHistoryTests",
            dependencies: [
                "StocktakeHistory", "StocktakePostgres", "StocktakeModel", "StocktakePolicy", "StocktakeSQLite",
                "TestSupport",
            ]),
        .testTarget(name: "StocktakeSQLiteTests", dependencies: ["StocktakeSQLite", "TestSupport"]),
        .testTarget(
            name: "StocktakeAuditTests",
            dependencies: ["StocktakeAudit", "StocktakeModel", "StocktakePolicy", "StocktakeReport", "TestSupport"]),
        .testTarget(
            name: "StocktakeBackupTests",
            dependencies: ["StocktakeBackup", "StocktakeModel", "StocktakeScan", "StocktakeSQLite", "TestSupport"]),
        // Depends on the executable so `swift test` builds the binary the end-to-end tests run.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "StocktakeModel", "StocktakePolicy", "StocktakeRendering", "StocktakeReport", "StocktakeNightly",
                "StocktakeHistory", "TestSupport",
                "stocktake",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (Fuzz/), only when Fuzz/run.sh asks: `swift build` never sees them. Each is an executable
// with `LLVMFuzzerTestOneInput` and no `main` (libFuzzer's), built with `--sanitize fuzzer` into `.build-fuzz`.
if Context.environment["STOCKTAKE_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzBinaryPlist", ["StocktakePropertyLists"]), ("FuzzXMLPlist", ["StocktakePropertyLists"]),
        ("FuzzAppleDouble", ["StocktakeContent"]),
        ("FuzzArchive", ["StocktakeScan"]), ("FuzzBinaryCookies", ["StocktakeContent"]),
        ("FuzzSecretScan", ["StocktakePropertyLists", "StocktakeContent"]),
        ("FuzzReportReader", ["StocktakeReport", "StocktakeDiff"]), ("FuzzBaseline", ["StocktakePolicy"]),
        ("FuzzConfiguration", ["StocktakePolicy"]),
        ("FuzzBackupManifest", ["StocktakeBackup", "StocktakeModel", "StocktakePropertyLists"]),
        ("FuzzURLCache", ["StocktakePropertyLists", "StocktakeContent"]),
        ("FuzzLocalStorage", ["StocktakePropertyLists", "StocktakeContent"]), ("FuzzMachO", ["StocktakeScan"]),
        ("FuzzRecord", ["StocktakeReport", "StocktakeHistory", "StocktakeNightly", "StocktakeAudit"]),
    ]
    for target in fuzzTargets {
        package.targets.append(
            .executableTarget(name: target.name, dependencies: target.dependencies, path: "Fuzz/Targets/\(target.name)")
        )
    }
}
