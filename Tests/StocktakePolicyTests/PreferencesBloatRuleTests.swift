import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct PreferencesBloatRuleTests {
    private func context() -> PolicyContext {
        var builder = InventoryBuilder()
        builder.add("Library/Preferences/com.example.chat.plist", apparentBytes: 255_688)
        builder.add("Library/Preferences/group.com.example.chat.plist", apparentBytes: 164)
        return PolicyContext(inventory: builder.build(), documentsExposed: nil)
    }

    @Test func theThresholdIsAnOptionAndItsDefaultIsOneMegabyte() {
        #expect(PreferencesBloatRule.defaultMaxBytes == 1_000_000)
        #expect(PreferencesBloatRule.description.options.map(\.defaultValue) == ["1000000"])
        #expect(PreferencesBloatRule().evaluate(context()).isEmpty)
        let found = PreferencesBloatRule(maxBytes: 200_000).evaluate(context())
        #expect(found.count == 1)
        #expect(found.first?.message.contains("256 KB") == true)
        #expect(found.first?.bytes == 258_048)
    }

    @Test func aFileExactlyAtTheThresholdIsNotOverIt() {
        #expect(PreferencesBloatRule(maxBytes: 255_688).evaluate(context()).isEmpty)
        #expect(PreferencesBloatRule(maxBytes: 255_687).evaluate(context()).count == 1)
    }
}
