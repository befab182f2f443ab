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

    /// Names are found by their folder and bytes through every growth of the index: the same name in two folders is
    /// two nodes, a name differing by a byte is not found, and a second copy of a path is one node.
    @Test func everyNameIsFoundInItsFolderOnly() throws {
        var tree = ArchiveTree()
        let count = 3_000
        for index in 0..<count {
            tree.insert(Self.member("a/\(index)").member, path: Array("a/\(index)".utf8), at: Int32(index))
            tree.insert(Self.member("b/\(index)").member, path: Array("b/\(index)".utf8), at: Int32(index))
        }
        tree.insert(Self.member("a/7").member, path: Array("a/7".utf8), at: 7)
        #expect(tree.nodes.count == 1 + 2 + 2 * count)
        let (a, b) = (try #require(tree.child(0, Array("a".utf8))), try #require(tree.child(0, Array("b".utf8))))
        for index in 0..<count {
            let (inA, inB) = (tree.child(a, Array("\(index)".utf8)), tree.child(b, Array("\(index)".utf8)))
            #expect(inA != nil && inB != nil && inA != inB)
            #expect(inA.map { String(decoding: tree.path($0), as: UTF8.self) } == "a/\(index)")
        }
        #expect(tree.child(a, Array("3000".utf8)) == nil && tree.child(a, Array("07".utf8)) == nil)
        #expect(tree.node(at: Array("b/2999".utf8)) != nil && tree.node(at: Array("c/1".utf8)) == nil)
    }
}
