import StocktakeModel
import Testing

@testable import stocktake

@Suite("What the CLI prints")
struct ConsoleTextTests {
    @Test("a hostile name can neither drive the terminal nor start a line of its own")
    func hostileNamesStayOnTheirLine() {
        let line = Terminal.visible("nl\n::error file=evil.swift,line=1::INJECTED\u{1B}]0;title\u{07}\r.log")
        #expect(!line.contains("\n") && !line.contains("\u{1B}") && !line.contains("\u{07}") && !line.contains("\r"))
        #expect(line.contains("::error"), "the text stays readable, on the same line")
    }

    @Test func progressSaysEntriesBytesAndRate() {
        #expect(
            ProgressLine.text(entries: 2_000, bytes: 5_000_000, seconds: 2)
                == "scanning: 2000 entries, 5.0 MB, 1000 entries/s")
        #expect(ProgressLine.text(entries: 1, bytes: 100, seconds: 1).hasPrefix("scanning: 1 entry, "))
    }

    @Test("one of a thing is singular, in every count people read")
    func plurals() {
        #expect(Plural.count(1, "file") == "1 file")
        #expect(Plural.count(0, "file") == "0 files")
        #expect(Plural.count(Int64(2), "entry", "entries") == "2 entries")
        #expect(Plural.count(1, "entry", "entries") == "1 entry")
        #expect(Plural.count(1_204, "file", number: "1,204") == "1,204 files")
        #expect(Plural.noun(1, "file was", "files were") == "file was")
        #expect(Plural.count(3, "entry") == "3 entries")
    }

    @Test("every failure carries the exit status the README promises")
    func exitStatuses() {
        #expect(CommandFailure(.couldNotRun, "x").status.rawValue == 1)
        #expect(CommandFailure(.policyFailure, "x").status.rawValue == 2)
        #expect(CommandFailure(.usage, "x").status.rawValue == 64)
        #expect(CommandFailure(.locked, "x").status.rawValue == 75)
        #expect(!CommandFailure(.policyFailure, "x").isError)
    }
}

@Suite("Failures of several lines")
struct MultilineFailureTests {
    @Test("a failure given as lines keeps them; one line stays one line")
    func linesAreKept() {
        let failure = CommandFailure(.couldNotRun, lines: ["2 devices match:", "  A  name\nforged", "  B"])
        #expect(failure.lines == ["2 devices match:", "  A  name\nforged", "  B"])
        #expect(failure.message == "2 devices match:\n  A  name\nforged\n  B" && failure.status == .couldNotRun)
        let single = CommandFailure(.couldNotRun, lines: ["one"])
        #expect(single.lines == ["one"] && single.message == "one")
        let kept = CommandFailure(.usage, "stocktake.yml:3: bad key\n  oops: 1\n  ^", isMultiline: true)
        #expect(kept.lines == ["stocktake.yml:3: bad key", "  oops: 1", "  ^"])
        #expect(CommandFailure(.couldNotRun, "a\nb").lines == ["a\nb"], "one line stays one line, its break escaped")
        #expect(CommandFailure(.policyFailure, "").lines.isEmpty, "nothing to say when the command said it already")
    }
}
