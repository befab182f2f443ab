import StocktakeModel
import StocktakePolicy
import Testing

@Suite struct FindingGroupTests {
    static func finding(_ rule: String, _ severity: Severity, _ path: String, _ bytes: Int64?, fix: String = "fix it")
        -> Finding
    {
        Finding(
            rule: rule, severity: severity, path: path, message: "m", fix: fix, fingerprint: rule + path, bytes: bytes)
    }

    @Test("groups rank most severe first, then most bytes at stake; rows rank by bytes")
    func ranking() {
        let groups = FindingGroup.rank([
            Self.finding("small", .warning, "a", 10), Self.finding("big", .warning, "b", 5_000),
            Self.finding("big", .warning, "c", 9_000),
            Self.finding("severe", .error, "d", nil),
        ])
        #expect(groups.map(\.rule) == ["severe", "big", "small"])
        #expect(groups[1].findings.map(\.path) == ["c", "b"])
        #expect(groups[1].bytes == 14_000)
        #expect(groups[0].bytes == 0)
    }

    @Test("a finding inside another of its rule, or at the same path, is at stake once")
    func nestedFindingsCountOnce() {
        let group = FindingGroup.rank([
            Self.finding("many-small-files", .note, "Library/Caches", 100),
            Self.finding("many-small-files", .note, "Library/Caches/img", 60),
            Self.finding("many-small-files", .note, "Library/Caches-old", 7),
            Self.finding("many-small-files", .note, "Library/Caches-old", 7),
            Self.finding("many-small-files", .note, "Library/Cachesx/y", 1),
        ])[0]
        #expect(group.bytes == 108)
        #expect(group.findings.count == 5)
    }

    @Test("the fix is shared only when every finding of the group has the same one")
    func sharedFix() {
        #expect(
            FindingGroup.rank([Self.finding("r", .note, "a", 1), Self.finding("r", .note, "b", 1)])[0].sharedFix
                == "fix it")
        #expect(
            FindingGroup.rank([Self.finding("r", .note, "a", 1), Self.finding("r", .note, "b", 1, fix: "other")])[0]
                .sharedFix == nil)
    }
}
