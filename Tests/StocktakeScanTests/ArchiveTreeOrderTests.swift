import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeScan

/// An archive may list its members in any order: folders after what they hold, siblings of one folder
/// interleaved with another's, a file whose name a folder later takes. The tree (which member sits at which
/// path, and what was refused) must not depend on the order, so a member placed beside the one before it
/// lands where the walk from the root would put it.
@Suite struct ArchiveTreeOrderTests {
    static func member(_ path: String, _ type: EntryType = .file) -> (path: [UInt8], member: ArchiveMember) {
        let member = ArchiveMember(
            ordinal: 0, type: type, size: 1, modified: 0, attributeFlag: .none, transportedAttributes: false,
            kind: .unknown, sidecar: .notSidecar, symlinkTarget: nil, hardLinkTarget: nil, unreadable: nil)
        return (Array(path.utf8), member)
    }

    /// Every node as `path (dir|file) ← member path`, and the issues' paths: order-free facts of the tree.
    static func facts(_ members: [(path: [UInt8], member: ArchiveMember)]) -> [String] {
        var tree = ArchiveTree()
        for (index, listed) in members.enumerated() { tree.insert(listed.member, path: listed.path, at: Int32(index)) }
        var facts: [String] = []
        for index in tree.nodes.indices.dropFirst() {
            let node = tree.nodes[index]
            let member = node.member >= 0 ? String(decoding: members[Int(node.member)].path, as: UTF8.self) : "-"
            facts.append(
                "\(String(decoding: tree.path(Int32(index)), as: UTF8.self)) \(node.isDirectory ? "dir" : "file") ← \(member)"
            )
        }
        facts += tree.issues.map { "issue " + String(decoding: $0.path, as: UTF8.self) }
        return facts.sorted()
    }

    @Test(arguments: 0..<40)
    func theTreeDoesNotDependOnTheMembersOrder(seed: UInt64) {
        let members = [
            Self.member("Documents", .directory), Self.member("Documents/a.txt"), Self.member("Documents/b.txt"),
            Self.member("Library/Caches/x.bin"), Self.member("Library/Caches/y.bin"),
            Self.member("Documents/sub/c.txt"),
            Self.member("Documents/sub/d.txt"), Self.member("Library/Preferences/p.plist"),
            Self.member("Library/Caches", .directory),
            Self.member("tmp/t"), Self.member("Documents/sub2", .directory), Self.member("Documents/sub/e.txt"),
        ]
        var generator = SeededGenerator(seed: seed &+ 0x9E37_79B9_7F4A_7C15)
        let shuffled = members.shuffled(using: &generator)
        #expect(
            Self.facts(shuffled) == Self.facts(members),
            "order: \(shuffled.map { String(decoding: $0.path, as: UTF8.self) })")
    }

    /// `a/b` then `a/b/c`: the file `a/b` cannot hold `c`, whichever member came just before.
    @Test func aFileNamedLikeTheFolderBeforeIsNotUsedAsOne() {
        let members = [Self.member("a/x"), Self.member("a/b"), Self.member("a/b/c"), Self.member("a/y")]
        let facts = Self.facts(members)
        #expect(facts.contains("a/b file ← a/b"))
        #expect(facts.contains("issue a/b/c"))
        #expect(facts.contains("a/y file ← a/y"))
    }
}
