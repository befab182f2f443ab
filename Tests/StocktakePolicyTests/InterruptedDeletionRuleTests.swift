import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct InterruptedDeletionRuleTests {
    @Test(arguments: [
        "9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D", "9f0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d.old",
        ".9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D", ".trash-AE168B47", "Trash-2", "images.deleting", "x.DELETED",
        "to-delete",
    ])
    func namesRenamedForDeletion(_ name: String) {
        #expect(RenamedForDeletion.matches(Array(name.utf8)[...]))
    }

    @Test(arguments: [
        "uploads", "com.onevcat.Kingfisher.ImageCache.default", "9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2",
        "x9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D",
        "9F0B1C2D_3E4F_4A5B_8C6D_7E8F9A0B1C2D", "(A Document Being Saved By ChatApp)", "trash", "deleted",
    ])
    func ordinaryNames(_ name: String) {
        #expect(!RenamedForDeletion.matches(Array(name.utf8)[...]))
    }

    @Test func oneFindingPerOutermostFolderWithItsBytesAndFiles() throws {
        var builder = InventoryBuilder()
        builder.add("tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1/u1/images/1.jpg", apparentBytes: 12_000)
        builder.add(
            "tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1/u1/9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D/2.m4a",
            apparentBytes: 7_000)
        builder.add(
            "tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1/._1.jpg", apparentBytes: 4_096, flags: .transportArtefact)
        builder.add(
            "Library/Caches/Snapshots/9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D/a.ktx", apparentBytes: 100,
            flags: .systemManaged)
        // The scanner flags a whole system-managed subtree; the builder needs the folders described.
        for path in ["Library/Caches/Snapshots", "Library/Caches/Snapshots/9F0B1C2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D"] {
            builder.add(path, type: .directory, flags: .systemManaged)
        }
        let inventory = builder.build()
        let findings = InterruptedDeletionRule().evaluate(PolicyContext(inventory: inventory, documentsExposed: nil))
        let only = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(PathText.display(inventory.path(only.index)) == "tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1")
        // 12,000 → 12,288 and 7,000 → 8,192 allocated, plus four folders; the sidecar is not app data.
        #expect(only.bytes == Int64(12_288 + 8_192 + 4 * 4_096))
        #expect(only.message.contains("2 files") && only.message.contains("36.9 KB"))
    }
}
