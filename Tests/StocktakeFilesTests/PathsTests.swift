import StocktakeFiles
import Testing

@Suite struct PathsTests {
    @Test func oneSeparatorBetweenEachName() {
        #expect(Paths.join("reports", "com.example.chat") == "reports/com.example.chat")
        #expect(
            Paths.join("reports/", "com.example.chat", "run", "report.json")
                == "reports/com.example.chat/run/report.json")
        #expect(Paths.join("/", "tmp") == "/tmp", "the root does not double its slash")
        #expect(Paths.join("", "name") == "/name", "an empty folder still separates (callers pass real folders)")
        #expect(Paths.join("a") == "a")
        #expect(Paths.join("a", "b c\\d") == "a/b c\\d", "names are kept as they are")
    }
}
