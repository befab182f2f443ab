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
        var files: Int64?
        var apparent: Int64?
        var allocated: Int64?
        try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
            switch K.SizeTotal(rawValue: key) {
            case .files?: files = try json.size(at: KeyPath.member(path, K.SizeTotal.files))
            case .apparentBytes?: apparent = try json.size(at: KeyPath.member(path, K.SizeTotal.apparentBytes))
            case .allocatedBytes?: allocated = try json.size(at: KeyPath.member(path, K.SizeTotal.allocatedBytes))
            default: try json.skipValue()
            }
        }
        return SizeTotal(
            files: Int(try required(files, KeyPath.member(path, K.SizeTotal.files))),
            apparentBytes: try required(apparent, KeyPath.member(path, K.SizeTotal.apparentBytes)),
            allocatedBytes: try required(allocated, KeyPath.member(path, K.SizeTotal.allocatedBytes)))
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
                var list: [ReportSnapshot.GroupMember] = []
                try json.forEachElement(at: KeyPath.member(path, K.Group.members)) {
                    json, index throws(JSONReadFailure) in
                    list.append(
                        try readGroupMember(&json, at: KeyPath.element(KeyPath.member(path, K.Group.members), index)))
                }
                members = list
            }
            groups[name] = try required(members, KeyPath.member(path, K.Group.members))
        }
        return groups
    }

    private static func readGroupMember(_ json: inout JSONScanner, at path: String) throws(JSONReadFailure)
        -> ReportSnapshot.GroupMember
    {
        var id: String?
        var memberPath: String?
        var files: Int64?
        var apparent: Int64?
        var allocated: Int64?
        try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
            switch K.GroupMember(rawValue: key) {
            case .id?: id = try json.text()
            case .path?: memberPath = try json.text()
            case .files?: files = try json.size(at: KeyPath.member(path, K.GroupMember.files))
            case .apparentBytes?: apparent = try json.size(at: KeyPath.member(path, K.GroupMember.apparentBytes))
            case .allocatedBytes?: allocated = try json.size(at: KeyPath.member(path, K.GroupMember.allocatedBytes))
            default: try json.skipValue()
            }
        }
        let size = SizeTotal(
            files: Int(try required(files, KeyPath.member(path, K.GroupMember.files))),
            apparentBytes: try required(apparent, KeyPath.member(path, K.GroupMember.apparentBytes)),
            allocatedBytes: try required(allocated, KeyPath.member(path, K.GroupMember.allocatedBytes)))
        return ReportSnapshot.GroupMember(
            id: try required(id, KeyPath.member(path, K.GroupMember.id)),
            path: try required(memberPath, KeyPath.member(path, K.GroupMember.path)), size: size)
    }

    static func readBudgets(_ json: inout JSONScanner) throws(JSONReadFailure) -> [ReportSnapshot.Budget] {
        var budgets: [ReportSnapshot.Budget] = []
        let root = K.Document.budgets.rawValue
        try json.forEachElement(at: root) { json, index throws(JSONReadFailure) in
            let path = KeyPath.element(root, index)
            var scope: String?
            var unit: String?
            var limit: Int64?
            var actual: Int64?
            var exceeded: Bool?
            try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
                switch K.Budget(rawValue: key) {
                case .scope?: scope = try json.text()
                case .unit?: unit = try json.text()
                case .limit?: limit = try json.size(at: KeyPath.member(path, K.Budget.limit))
                case .actual?: actual = try json.size(at: KeyPath.member(path, K.Budget.actual))
                case .exceeded?: exceeded = try json.bool()
                default: try json.skipValue()
                }
            }
            budgets.append(
                ReportSnapshot.Budget(
                    scope: try required(scope, KeyPath.member(path, K.Budget.scope)),
                    unit: try required(unit, KeyPath.member(path, K.Budget.unit)),
                    limit: try required(limit, KeyPath.member(path, K.Budget.limit)),
                    actual: try required(actual, KeyPath.member(path, K.Budget.actual)),
                    exceeded: try required(exceeded, KeyPath.member(path, K.Budget.exceeded))))
        }
        return budgets
    }

    static func readFindings(_ json: inout JSONScanner) throws(JSONReadFailure) -> [ReportSnapshot.FindingRecord] {
        var findings: [ReportSnapshot.FindingRecord] = []
        let root = K.Document.findings.rawValue
        try json.forEachElement(at: root) { json, index throws(JSONReadFailure) in
            let path = KeyPath.element(root, index)
            var rule: String?
            var severity: Severity?
            var findingPath: String?
            var message: String?
            var fingerprint: String?
            var bytes: Int64?
            try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
                switch K.Finding(rawValue: key) {
                case .rule?: rule = try json.text()
                case .severity?:
                    let name = try json.text()
                    guard let value = Severity(rawValue: name) else {
                        throw .schema(
                            path: KeyPath.member(path, K.Finding.severity),
                            problem: "\(VisibleText.quoted(name)) is not a severity (error, warning, note)")
                    }
                    severity = value
                case .path?: findingPath = try json.text()
                case .message?: message = try json.text()
                case .fingerprint?: fingerprint = try json.text()
                case .bytes?: bytes = try json.null() ? nil : try json.size(at: KeyPath.member(path, K.Finding.bytes))
                default: try json.skipValue()
                }
            }
            findings.append(
                ReportSnapshot.FindingRecord(
                    rule: try required(rule, KeyPath.member(path, K.Finding.rule)),
                    severity: try required(severity, KeyPath.member(path, K.Finding.severity)),
                    path: try required(findingPath, KeyPath.member(path, K.Finding.path)),
                    message: try required(message, KeyPath.member(path, K.Finding.message)),
                    fingerprint: try required(fingerprint, KeyPath.member(path, K.Finding.fingerprint)), bytes: bytes))
        }
        return findings
    }
}
