import Testing

@testable import StocktakeHistory

@Suite struct ISO8601SecondsTests {
    @Test func reportTimesBecomeSecondsSince1970() {
        #expect(ISO8601Seconds.parse("1970-01-01T00:00:00Z") == 0)
        #expect(ISO8601Seconds.parse("2026-11-21T02:00:00Z") == 1_795_226_400)
        #expect(ISO8601Seconds.parse("2000-02-29T12:30:15.5Z") == 951_827_415.5)
        #expect(ISO8601Seconds.parse("2026-11-21 02:00:00") == nil)
        #expect(ISO8601Seconds.parse("2026-13-21T02:00:00Z") == nil)
    }
}
