import StocktakeModel
import StocktakePolicy

/// The small sections of a report: totals, groups, budgets, findings.
extension ReportDocument {
    private typealias K = ReportKeys

    static func readTotals(_ json: inout JSONScanner) throws(JSONReadFailure) -> ReportSnapshot.Totals {
        var onDisk: SizeTotal?
        var documentsAndData: SizeTotal?
        var purgeable: SizeTotal?
        var byLocation: [Location: SizeTotal]?
        var backup: [BackupState: SizeTotal]?
        let root = K.Document.totals.rawValue
        try json.forEachMember(at: root) { json, key throws(JSONReadFailure) in
            let path = KeyPath.member(root, key)
            switch K.Totals(rawValue: key) {
            case .onDisk?: onDisk = try readSizeTotal(&json, at: path)
            case .documentsAndData?: documentsAndData = try readSizeTotal(&json, at: path)
            case .purgeable?: purgeable = try readSizeTotal(&json, at: path)
            case .byLocation?: byLocation = try readEveryCase(&json, at: path)
            case .backup?: backup = try readEveryCase(&json, at: path)
            default: try json.skipValue()
            }
        }
        func member(_ key: K.Totals) -> String { KeyPath.member(root, key) }
        return ReportSnapshot.Totals(
            onDisk: try required(onDisk, member(.onDisk)), byLocation: try required(byLocation, member(.byLocation)),
            documentsAndData: try required(documentsAndData, member(.documentsAndData)),
            purgeable: try required(purgeable, member(.purgeable)), backup: try required(backup, member(.backup)))
    }

    /// A size total for every case of `Key`, the object `JSONStream.object(everyCaseOf:)` writes; a case a later
    /// version added is skipped, a case this one knows must be there.
    private static func readEveryCase<Key: CaseIterable & RawRepresentable & Hashable>(
        _ json: inout JSONScanner, at path: String
    ) throws(JSONReadFailure) -> [Key: SizeTotal] where Key.RawValue == String {
        var totals: [Key: SizeTotal] = [:]
        try json.forEachMember(at: path) { json, id throws(JSONReadFailure) in
            guard let key = Key(rawValue: id) else { return try json.skipValue() }
            totals[key] = try readSizeTotal(&json, at: KeyPath.member(path, id))
        }
        for key in Key.allCases where totals[key] == nil { throw .missing(KeyPath.member(path, key)) }
        return totals
    }

    /// `{files, apparentBytes, allocatedBytes}`.
    static func readSizeTotal(_ json: inout JSONScanner, at path: String) throws(JSONReadFailure) -> SizeTotal {
        let total = try Members<K.SizeTotal>(
            &json, at: path, [.files: .size, .apparentBytes: .size, .allocatedBytes: .size])
        return SizeTotal(
            files: Int(try total.size(.files)), apparentBytes: try total.size(.apparentBytes),
            allocatedBytes: try total.size(.allocatedBytes))
    }

    static func readGroups(_ json: inout JSONScanner) throws(JSONReadFailure) -> [String: [ReportSnapshot.GroupMember]]
    {
        var groups: [String: [ReportSnapshot.GroupMember]] = [:]
        let root = K.Document.groups.rawValue
        try json.forEachMember(at: root) { json, name throws(JSONReadFailure) in
            let path = KeyPath.member(root, name)
            var members: [ReportSnapshot.GroupMember]?
            try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
                guard key == K.Group.members.rawValue else { return try json.skipValue() }
                members = try json.mapElements(at: KeyPath.member(path, key), readGroupMember)
            }
            groups[name] = try required(members, KeyPath.member(path, K.Group.members))
        }
        return groups
    }

    private static func readGroupMember(_ json: inout JSONScanner, at path: String) throws(JSONReadFailure)
        -> ReportSnapshot.GroupMember
    {
        let member = try Members<K.GroupMember>(
            &json, at: path, [.id: .text, .path: .text, .files: .size, .apparentBytes: .size, .allocatedBytes: .size])
        let size = SizeTotal(
            files: Int(try member.size(.files)), apparentBytes: try member.size(.apparentBytes),
            allocatedBytes: try member.size(.allocatedBytes))
        return ReportSnapshot.GroupMember(id: try member.text(.id), path: try member.text(.path), size: size)
    }

    static func readBudgets(_ json: inout JSONScanner) throws(JSONReadFailure) -> [ReportSnapshot.Budget] {
        try json.mapElements(at: K.Document.budgets.rawValue) { json, path throws(JSONReadFailure) in
            let budget = try Members<K.Budget>(
                &json, at: path, [.scope: .text, .unit: .text, .limit: .size, .actual: .size, .exceeded: .bool])
            return ReportSnapshot.Budget(
                scope: try budget.text(.scope), unit: try budget.text(.unit), limit: try budget.size(.limit),
                actual: try budget.size(.actual), exceeded: try budget.bool(.exceeded))
        }
    }

    static func readFindings(_ json: inout JSONScanner) throws(JSONReadFailure) -> [ReportSnapshot.FindingRecord] {
        try json.mapElements(at: K.Document.findings.rawValue) { json, path throws(JSONReadFailure) in
            let finding = try Members<K.Finding>(
                &json, at: path,
                [
                    .rule: .text, .severity: .severity, .path: .text, .message: .text, .fingerprint: .text,
                    .bytes: .nullableSize,
                ])
            return ReportSnapshot.FindingRecord(
                rule: try finding.text(.rule), severity: try finding.severity(.severity), path: try finding.text(.path),
                message: try finding.text(.message), fingerprint: try finding.text(.fingerprint),
                bytes: finding.optionalSize(.bytes))
        }
    }
}
