import StocktakeModel
import StocktakeRendering
import Testing

@testable import StocktakeDiff

/// The figures every diff format shares: bloaty's percent cell, signed deltas, the collapsed tail.
@Suite struct DiffFiguresTests {
    @Test func percentCellFollowsBloaty() {
        #expect(Percent.change(old: 0, new: 0) == "[ = ]")
        #expect(Percent.change(old: 4096, new: 4096) == "[ = ]")
        #expect(Percent.change(old: 0, new: 4096) == "[NEW]")
        #expect(Percent.change(old: 4096, new: 0) == "[DEL]")
        #expect(Percent.change(old: 800, new: 900) == "+12.5%")
        #expect(Percent.change(old: 1000, new: 970) == "-3.0%")
        #expect(Percent.change(old: 3, new: 2) == "-33.3%")
        #expect(Percent.change(old: 100, new: 300) == "+200.0%")
        // A change too small for one decimal still shows its direction.
        #expect(Percent.change(old: 1_000_000_000, new: 1_000_000_001) == "+0.0%")
        #expect(Percent.change(old: 1_000_000_001, new: 1_000_000_000) == "-0.0%")
    }

    @Test func hugeGrowthStaysShortAndNeverTraps() {
        #expect(Percent.change(old: 1, new: 9_999) == "+999800.0%")
        #expect(Percent.change(old: 1, new: 100_000) == "+1.0e7%")
        #expect(Percent.change(old: 1, new: .max) == "+9.2e20%")
        #expect(Percent.change(old: .max, new: 1) == "-100.0%")
    }

    @Test func percentValueForJSON() {
        #expect(DiffPercent.value(old: 0, new: 0) == 0)
        #expect(DiffPercent.value(old: 0, new: 5) == nil)
        #expect(DiffPercent.value(old: 5, new: 0) == -100)
        #expect(DiffPercent.value(old: 800, new: 900) == 12.5)
        #expect(DiffPercent.value(old: 3, new: 2) == -33.3)
        let tiny = DiffPercent.value(old: 1_000_000_001, new: 1_000_000_000)
        #expect(tiny == 0 && tiny?.sign == .plus, "never -0.0")
        #expect(DiffPercent.value(old: 1, new: .max)?.isFinite == true)
    }

    @Test func signedDeltas() {
        #expect(ByteCount.signed(1_200_000) == "+1.2 MB")
        #expect(ByteCount.signed(-4_000) == "-4.0 KB")
        #expect(ByteCount.signed(0) == "0 bytes")
        #expect(ByteCount.signed(-212_000) == "-212 KB")
        #expect(DiffSigned.count(3) == "+3" && DiffSigned.count(-2) == "-2" && DiffSigned.count(0) == "0")
        #expect(
            DiffSigned.othersLine(count: 12, allocatedDelta: 340_000) == "… and 12 others (+340 KB)")
        #expect(DiffSigned.othersLine(count: 1, allocatedDelta: -5) == "… and 1 other (-5 bytes)")
    }

    @Test func aRankedListCutFurtherKeepsTheTotalOfWhatIsLeftOut() {
        let rows = (1...5).map {
            SizeChange(
                id: "d\($0)", old: nil, new: SizeTotal(files: 1, apparentBytes: 0, allocatedBytes: Int64($0) * 100))
        }
        let head = ListHead(ListHead(shown: rows[...], othersCount: 7, othersAllocatedDelta: -1_000), limit: 2)
        #expect(head.shown.map(\.id) == ["d1", "d2"])
        #expect(head.othersCount == 3 + 7)
        #expect(head.othersAllocatedDelta == 300 + 400 + 500 - 1_000)
    }
}
