#if PostgreSQL
    import Foundation
    import StocktakeModel
    import TestSupport
    import Testing

    /// The shared history on a real PostgreSQL server, through the real binary, as a fleet uses it: many processes
    /// at once, a server that stops mid-write, and the failures a person has to act on.
    @Suite(.serialized, .enabled(if: PostgresServer.enabled, PostgresServer.hint))
    struct PostgresSharedHistoryTests {
        /// The issue's first "done when": two machines' runs, separate report folders, one history and one index.
        @Test func twoMachinesNightlyRunsMakeOneHistoryAndOneIndex() throws {
            let database = try PostgresServer.freshDatabase()
            let tree = try TemporaryTree("shared")
            try SharedHistory.twoMachines(
                tree: tree, history: database.url, environment: PostgresServer.loginEnvironment)
            #expect(try database.count("SELECT count(*) FROM runs") == 3)
            #expect(try database.count("SELECT count(DISTINCT report_location) FROM runs") == 3)
        }

        /// 8 processes record 100 runs each at once, and all 8 also record the same 20 runs (a retried CI step on
        /// every runner): every run is there once, whole.
        @Test func eightProcessesRecordingAtOnceLoseAndDuplicateNothing() throws {
            let database = try PostgresServer.freshDatabase()
            let tree = try TemporaryTree("writers")
            let report = try SharedHistory.sampleReport(in: tree)
            let script = """
                for i in $(seq 1 100); do
                  "$STOCKTAKE" record "$REPORT" --history "$URL" --source "worker-$W" --run-id "run-$i" || exit 1
                  if [ $i -le 20 ]; then
                    "$STOCKTAKE" record "$REPORT" --history "$URL" --source shared --run-id "shared-$i" || exit 1
                  fi
                done
                """
            try tree.write("writer.sh", string: script)
            let workers = (1...8).map { "W=\($0) bash \(tree.path("writer.sh")) > \(tree.path("w\($0).log")) 2>&1 &" }
            let result = try StocktakeProcess.runCommand(
                [
                    "/bin/bash", "-c",
                    workers.joined(separator: "\n")
                        + "\nfail=0; for p in $(jobs -p); do wait $p || fail=1; done; exit $fail",
                ],
                environment: PostgresServer.loginEnvironment.merging([
                    "STOCKTAKE": try StocktakeProcess.binary, "REPORT": report, "URL": database.url,
                ]) { $1 }, timeout: 900)
            let logs = (1...8).compactMap { try? String(contentsOfFile: tree.path("w\($0).log"), encoding: .utf8) }
            #expect(result.status == 0, "\(logs.joined(separator: "\n"))")
            #expect(try database.count("SELECT count(*) FROM runs") == 8 * 100 + 20)
            #expect(
                try database.count(
                    "SELECT count(*) FROM (SELECT DISTINCT bundle_identifier, source, run_id FROM runs) r") == 820)
            #expect(try database.count("SELECT count(*) FROM runs WHERE source = 'shared'") == 20)
            try Self.expectEveryRunWhole(database)
        }

        /// The server crashes (an immediate stop) while four writers record: no run is left half-written, the
        /// writers fail with a message and exit 1, and recording again after the restart completes the history.
        @Test func aServerStoppedMidWriteLeavesNoHalfRunAndTheRetryRecovers() throws {
            let database = try PostgresServer.freshDatabase()
            let tree = try TemporaryTree("crash")
            let report = try SharedHistory.sampleReport(in: tree)
            let environment = PostgresServer.loginEnvironment.merging([
                "STOCKTAKE": try StocktakeProcess.binary, "REPORT": report, "URL": database.url,
            ]) { $1 }
            let writer = """
                for i in $(seq 1 60); do
                  "$STOCKTAKE" record "$REPORT" --history "$URL" --source "w$W" --run-id "run-$i" 2>>"$LOG" || echo "failed $i $?" >> "$LOG"
                done
                """
            try tree.write("writer.sh", string: writer)
            let writers = (1...4).map {
                "W=\($0) LOG=\(tree.path("w\($0).log")) bash \(tree.path("writer.sh")) &"
            }
            // The crash comes while the writers are busy; they go on (failing) until their loops end.
            let crash = writers.joined(separator: "\n") + "\nsleep 1.5\n"
            let background = try StocktakeProcess.runCommand(
                ["/bin/bash", "-c", crash + "\"$CONTROL\" stop \"$STATE\" immediate; wait"],
                environment: environment.merging([
                    "CONTROL": ProcessInfo.processInfo.environment["STOCKTAKE_POSTGRES_CONTROL"] ?? "",
                    "STATE": ProcessInfo.processInfo.environment["STOCKTAKE_POSTGRES_STATE"] ?? "",
                ]) { $1 }, timeout: 900)
            #expect(background.status == 0, "\(background.stderr)")
            try PostgresServer.restart()
            let logs = (1...4).compactMap { try? String(contentsOfFile: tree.path("w\($0).log"), encoding: .utf8) }
                .joined()
            #expect(logs.contains("failed"), "the crash came after every write")
            #expect(logs.contains("history store postgresql://stocktake@"), "\(logs.prefix(2000))")
            #expect(!logs.contains(PostgresServer.password))
            let recorded = try database.count("SELECT count(*) FROM runs")
            #expect(recorded < 240)
            try Self.expectEveryRunWhole(database)
            // The retry: every writer records its runs again; the ones already there are replaced, not added.
            let retry = try StocktakeProcess.runCommand(
                [
                    "/bin/bash", "-c",
                    "for W in 1 2 3 4; do for i in $(seq 1 60); do \"$STOCKTAKE\" record \"$REPORT\" --history \"$URL\" --source w$W --run-id run-$i || exit 1; done; done",
                ], environment: environment, timeout: 900)
            #expect(retry.status == 0, "\(retry.stderr)")
            #expect(try database.count("SELECT count(*) FROM runs") == 240)
            try Self.expectEveryRunWhole(database)
        }

        /// The nightly job with the server down: every report is still written, the night exits 1 naming the server,
        /// and the next night (server back) records the run it missed.
        @Test func aNightWithTheServerDownStillWritesItsReportsAndTheNextNightRecordsThem() throws {
            let database = try PostgresServer.freshDatabase()
            let farm = try NightlyJobTests.Farm()
            try farm.export(version: 1)
            let down = try StocktakeProcess.run(
                ["nightly", farm.inbox, farm.reports, "--history", "postgresql://stocktake@127.0.0.1:1/nowhere"],
                environment: ["SOURCE_DATE_EPOCH": SharedHistory.nights[0]])
            #expect(down.status == 1)
            #expect(
                down.stderr.contains("history store postgresql://stocktake@127.0.0.1:1/nowhere could not be reached"))
            #expect(FileManager.default.fileExists(atPath: farm.app + "/2026-11-21T020000Z/report.html"))
            #expect(farm.latest() == "2026-11-21T020000Z")

            let next = try StocktakeProcess.run(
                ["nightly", farm.inbox, farm.reports, "--history", database.url],
                environment: PostgresServer.loginEnvironment.merging(["SOURCE_DATE_EPOCH": SharedHistory.nights[1]]) {
                    $1
                })
            #expect([0, 2].contains(next.status), "\(next.stderr)")
            #expect(try database.psql("SELECT run_id FROM runs ORDER BY run_id") == "2026-11-21T020000Z\n")
            withExtendedLifetime(farm) {}
        }

        @Test func failuresSayWhatToCheckAndExitOne() throws {
            let database = try PostgresServer.freshDatabase()
            let tree = try TemporaryTree("failures")
            let report = try SharedHistory.sampleReport(in: tree)
            let secret = "wrong-\(UUID().uuidString)"
            let wrong = try StocktakeProcess.run(
                ["record", report, "--history", database.url], environment: ["PGPASSWORD": secret])
            #expect(wrong.status == 1)
            #expect(
                wrong.stderr.contains("refused the password for user stocktake (the password came from PGPASSWORD)"))
            #expect(!wrong.stderr.contains(secret) && !wrong.stdout.contains(secret))

            let inURL = database.url.replacingOccurrences(of: "stocktake@", with: "stocktake:\(secret)@")
            let shown = try StocktakeProcess.run(["record", report, "--history", inURL])
            #expect(shown.status == 1 && !shown.stderr.contains(secret), "\(shown.stderr)")

            let unreachable = try StocktakeProcess.run(
                ["record", report, "--history", "postgresql://stocktake@127.0.0.1:1/db"])
            #expect(unreachable.status == 1)
            #expect(unreachable.stderr.contains("could not be reached: connection refused"))

            let recorded = try StocktakeProcess.run(
                ["record", report, "--history", database.url], environment: PostgresServer.loginEnvironment)
            #expect(recorded.status == 0, "\(recorded.stderr)")
            try database.psql("UPDATE stocktake_schema SET version = 99")
            let newer = try StocktakeProcess.run(
                ["index", "--history", database.url, "--output", tree.path("index")],
                environment: PostgresServer.loginEnvironment)
            #expect(newer.status == 1)
            #expect(newer.stderr.contains("has schema version 99; this stocktake knows up to"))
            #expect(try database.count("SELECT count(*) FROM runs") == 1)
        }

        /// Every run has all its location rows and the finding rows its counts say (nothing half-written).
        static func expectEveryRunWhole(_ database: PostgresServer.Database) throws {
            #expect(
                try database.count(
                    "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM run_locations l WHERE l.run = r.id) <> \(Location.allCases.count)"
                )
                    == 0)
            #expect(
                try database.count(
                    """
                    SELECT count(*) FROM runs r WHERE error_findings + warning_findings + note_findings
                        <> COALESCE((SELECT sum(count) FROM run_findings f WHERE f.run = r.id), 0)
                    """) == 0)
        }
    }

    /// A peer that takes the connection and never answers (a frozen server, a black-holing proxy): the login gives up
    /// at `connect_timeout` and says so, rather than holding a cron job. Needs no server: a listener stands in.
    @Suite struct SilentServerTests {
        @Test func aServerThatNeverAnswersIsGivenUpOnAtTheConnectTimeout() throws {
            let tree = try TemporaryTree("silent")
            let report = try SharedHistory.sampleReport(in: tree)
            let listener = Process()
            listener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            listener.arguments = [
                "python3", "-c",
                """
                import socket
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5); s.settimeout(60)
                print(s.getsockname()[1], flush=True)
                held = s.accept()[0]
                held.settimeout(60)
                try: held.recv(1 << 16); held.recv(1 << 16)
                except OSError: pass
                """,
            ]
            let output = Pipe()
            listener.standardOutput = output
            // Not the test's own stderr: a listener left running would hold the runner's pipe open.
            listener.standardError = FileHandle.nullDevice
            try listener.run()
            defer { kill(listener.processIdentifier, SIGKILL) }
            let port = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(Int(port) != nil, "the listener printed '\(port)'")
            let started = Date()
            let result = try StocktakeProcess.run(
                [
                    "record", report, "--history",
                    "postgresql://stocktake@127.0.0.1:\(port)/db?sslmode=disable&connect_timeout=2",
                ], timeout: 60)
            #expect(!result.timedOut)
            #expect(result.status == 1)
            #expect(result.stderr.contains("could not be reached: no answer within 2 s"), "\(result.stderr)")
            #expect(Date().timeIntervalSince(started) < 30)
        }
    }
#endif
