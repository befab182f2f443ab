import StocktakeModel

/// One member of a group (one chat of `chats: "…/Chats/{id}/**"`) and what it holds.
public struct GroupMember: Sendable, Equatable {
    public let id: String
    /// The member's own path (the folder or file the `{id}` component names).
    public let path: [UInt8]
    public let index: Int32
    public var total: SizeTotal
}

/// A group's members, largest first.
public struct GroupResult: Sendable, Equatable {
    public let definition: GroupDefinition
    public let members: [GroupMember]

    /// Finds the members: the pattern's literal folders lead to a subtree; the `{id}` component (with
    /// optional literal text around it) names the members; the rest is a glob on what lies below them.
    public static func compute(_ definition: GroupDefinition, in inventory: Inventory) -> GroupResult {
        let components = definition.pattern.split(separator: "/").map(String.init)
        guard let capture = components.firstIndex(where: { $0.contains("{id}") }),
            let base = inventory.index(ofPath: Array(components[..<capture].joined(separator: "/").utf8))
        else { return GroupResult(definition: definition, members: []) }
        let shape = components[capture].components(separatedBy: "{id}")
        let (before, after) = (shape[0], shape.count > 1 ? shape[1] : "")
        let rest = Glob(components[(capture + 1)...].joined(separator: "/"))
        let restIsEmpty = capture + 1 == components.count
        // Adds the app-data files at or below `index` whose path below the member matches `rest`.
        func collect(_ index: Int32, _ relative: [String], into total: inout SizeTotal) {
            let entry = inventory.entries[Int(index)]
            if !entry.isDirectory {
                if entry.isAppData && (restIsEmpty ? relative.isEmpty : rest.matches(relative.joined(separator: "/"))) {
                    total.add(entry)
                }
            } else if !restIsEmpty {
                for child in inventory.children(index) {
                    collect(child, relative + [PathText.display(inventory.name(child))], into: &total)
                }
            }
        }
        var members: [String: GroupMember] = [:]
        for child in inventory.children(base) {
            let name = PathText.display(inventory.name(child))
            guard name.hasPrefix(before), name.hasSuffix(after), name.count > before.count + after.count,
                Glob.matchComponent(Array(before + "*" + after), Array(name))
            else { continue }
            let id = String(name.dropFirst(before.count).dropLast(after.count))
            var member = GroupMember(id: id, path: inventory.path(child), index: child, total: .zero)
            collect(child, [], into: &member.total)
            if member.total.files > 0 { members[id] = member }
        }
        let sorted = members.values.sorted { ($0.total.allocatedBytes, $1.id) > ($1.total.allocatedBytes, $0.id) }
        return GroupResult(definition: definition, members: sorted)
    }
}
