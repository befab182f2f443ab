import StocktakeModel
import StocktakePolicy

/// The small sections of a report: totals, groups, budgets, findings.
extension ReportDocument {
    private typealias K = ReportKeys

    static func readTotals(_ json: inout JSONScanner) throws(JSONReadFailure) -> ReportSnapshot.Totals {
        var onDisk: SizeTotal?
        var documentsAndData: SizeTotal?
        var purgeable: SizeTotal?
        var byLocation: [Location: SizeTotal] = [:]
        var backup: [BackupState: SizeTotal] = [:]
        let root = K.Document.totals.rawValue
        try json.forEachMember(at: root) { json, key throws(JSONReadFailure) in
            let path = KeyPath.member(root, key)
            switch K.Totals(rawValue: key) {
            case .onDisk?: onDisk = try readSizeTotal(&json, at: path)
            case .documentsAndData?: documentsAndData = try readSizeTotal(&json, at: path)
            case .purgeable?: purgeable = try readSizeTotal(&json, at: path)
            case .byLocation?:
                try json.forEachMember(at: path) { json, id throws(JSONReadFailure) in
                    // An id this version does not know (a later one may add locations) is skipped.
                    guard let location = Location(rawValue: id) else { return try json.skipValue() }
                    byLocation[location] = try readSizeTotal(&json, at: KeyPath.member(path, id))
                }
            case .backup?:
                try json.forEachMember(at: path) { json, id throws(JSONReadFailure) in
                    guard let state = BackupState(rawValue: id) else { return try json.skipValue() }
                    backup[state] = try readSizeTotal(&json, at: KeyPath.member(path, id))
                }
            default: try json.skipValue()
            }
        }
        for location in Location.allCases where byLocation[location] == nil {
            throw .missing(KeyPath.member(KeyPath.member(root, K.Totals.byLocation), location.rawValue))
        }
        for state in BackupState.allCases where backup[state] == nil {
            throw .missing(KeyPath.member(KeyPath.member(root, K.Totals.backup), state.rawValue))
        }
        return ReportSnapshot.Totals(
            onDisk: try required(onDisk, KeyPath.member(root, K.Totals.onDisk)), byLocation: byLocation,
            documentsAndData: try required(documentsAndData, KeyPath.member(root, K.Totals.documentsAndData)),
            purgeable: try required(purgeable, KeyPath.member(root, K.Totals.purgeable)), backup: backup)
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
