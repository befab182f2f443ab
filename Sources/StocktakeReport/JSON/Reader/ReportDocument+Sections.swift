import StocktakeModel
import StocktakePolicy

/// The small sections of a report: totals, groups, budgets, findings.
extension ReportDocument {
    private typealias K = ReportKeys

    static func readTotals(_ json: inout JSONScanner) throws(JSONReadFailure) -> ReportSnapshot.Totals {
        var onDisk: SizeTotal?, documentsAndData: SizeTotal?, purgeable: SizeTotal?
        var byLocation: [Location: SizeTotal] = [:], backup: [BackupState: SizeTotal] = [:]
        try json.forEachMember(at: "totals") { json, key throws(JSONReadFailure) in
            let path = "totals." + key
            switch K.Totals(rawValue: key) {
            case .onDisk?: onDisk = try readSizeTotal(&json, at: path)
            case .documentsAndData?: documentsAndData = try readSizeTotal(&json, at: path)
            case .purgeable?: purgeable = try readSizeTotal(&json, at: path)
            case .byLocation?:
                try json.forEachMember(at: path) { json, id throws(JSONReadFailure) in
                    // An id this version does not know (a later one may add locations) is skipped.
                    guard let location = Location(rawValue: id) else { return try json.skipValue() }
                    byLocation[location] = try readSizeTotal(&json, at: path + "." + id)
                }
            case .backup?:
                try json.forEachMember(at: path) { json, id throws(JSONReadFailure) in
                    guard let state = BackupState(rawValue: id) else { return try json.skipValue() }
                    backup[state] = try readSizeTotal(&json, at: path + "." + id)
                }
            default: try json.skipValue()
            }
        }
        for location in Location.allCases where byLocation[location] == nil { throw .missing("totals.byLocation." + location.rawValue) }
        for state in BackupState.allCases where backup[state] == nil { throw .missing("totals.backup." + state.rawValue) }
        return ReportSnapshot.Totals(
            onDisk: try required(onDisk, "totals.onDisk"), byLocation: byLocation,
            documentsAndData: try required(documentsAndData, "totals.documentsAndData"),
            purgeable: try required(purgeable, "totals.purgeable"), backup: backup)
    }

    /// `{files, apparentBytes, allocatedBytes}`.
    static func readSizeTotal(_ json: inout JSONScanner, at path: String) throws(JSONReadFailure) -> SizeTotal {
        var files: Int64?, apparent: Int64?, allocated: Int64?
        try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
            switch K.SizeTotal(rawValue: key) {
            case .files?: files = try json.size(at: path + ".files")
            case .apparentBytes?: apparent = try json.size(at: path + ".apparentBytes")
            case .allocatedBytes?: allocated = try json.size(at: path + ".allocatedBytes")
            default: try json.skipValue()
            }
        }
        return SizeTotal(
            files: Int(try required(files, path + ".files")), apparentBytes: try required(apparent, path + ".apparentBytes"),
            allocatedBytes: try required(allocated, path + ".allocatedBytes"))
    }

    static func readGroups(_ json: inout JSONScanner) throws(JSONReadFailure) -> [String: [ReportSnapshot.GroupMember]] {
        var groups: [String: [ReportSnapshot.GroupMember]] = [:]
        try json.forEachMember(at: "groups") { json, name throws(JSONReadFailure) in
            let path = "groups." + name
            var members: [ReportSnapshot.GroupMember]?
            try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
                guard key == K.Group.members.rawValue else { return try json.skipValue() }
                var list: [ReportSnapshot.GroupMember] = []
                try json.forEachElement(at: path + ".members") { json, index throws(JSONReadFailure) in
                    list.append(try readGroupMember(&json, at: "\(path).members[\(index)]"))
                }
                members = list
            }
            groups[name] = try required(members, path + ".members")
        }
        return groups
    }

    private static func readGroupMember(_ json: inout JSONScanner, at path: String) throws(JSONReadFailure) -> ReportSnapshot.GroupMember {
        var id: String?, memberPath: String?, files: Int64?, apparent: Int64?, allocated: Int64?
        try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
            switch K.GroupMember(rawValue: key) {
            case .id?: id = try json.text()
            case .path?: memberPath = try json.text()
            case .files?: files = try json.size(at: path + ".files")
            case .apparentBytes?: apparent = try json.size(at: path + ".apparentBytes")
            case .allocatedBytes?: allocated = try json.size(at: path + ".allocatedBytes")
            default: try json.skipValue()
            }
        }
        let size = SizeTotal(
            files: Int(try required(files, path + ".files")), apparentBytes: try required(apparent, path + ".apparentBytes"),
            allocatedBytes: try required(allocated, path + ".allocatedBytes"))
        return ReportSnapshot.GroupMember(id: try required(id, path + ".id"), path: try required(memberPath, path + ".path"), size: size)
    }

    static func readBudgets(_ json: inout JSONScanner) throws(JSONReadFailure) -> [ReportSnapshot.Budget] {
        var budgets: [ReportSnapshot.Budget] = []
        try json.forEachElement(at: "budgets") { json, index throws(JSONReadFailure) in
            let path = "budgets[\(index)]"
            var scope: String?, unit: String?, limit: Int64?, actual: Int64?, exceeded: Bool?
            try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
                switch K.Budget(rawValue: key) {
                case .scope?: scope = try json.text()
                case .unit?: unit = try json.text()
                case .limit?: limit = try json.size(at: path + ".limit")
                case .actual?: actual = try json.size(at: path + ".actual")
                case .exceeded?: exceeded = try json.bool()
                default: try json.skipValue()
                }
            }
            budgets.append(
                ReportSnapshot.Budget(
                    scope: try required(scope, path + ".scope"), unit: try required(unit, path + ".unit"),
                    limit: try required(limit, path + ".limit"), actual: try required(actual, path + ".actual"),
                    exceeded: try required(exceeded, path + ".exceeded")))
        }
        return budgets
    }

    static func readFindings(_ json: inout JSONScanner) throws(JSONReadFailure) -> [ReportSnapshot.FindingRecord] {
        var findings: [ReportSnapshot.FindingRecord] = []
        try json.forEachElement(at: "findings") { json, index throws(JSONReadFailure) in
            let path = "findings[\(index)]"
            var rule: String?, severity: Severity?, findingPath: String?, message: String?, fingerprint: String?, bytes: Int64?
            try json.forEachMember(at: path) { json, key throws(JSONReadFailure) in
                switch K.Finding(rawValue: key) {
                case .rule?: rule = try json.text()
                case .severity?:
                    let name = try json.text()
                    guard let value = Severity(rawValue: name) else {
                        throw .schema(path: path + ".severity", problem: "'\(name)' is not a severity (error, warning, note)")
                    }
                    severity = value
                case .path?: findingPath = try json.text()
                case .message?: message = try json.text()
                case .fingerprint?: fingerprint = try json.text()
                case .bytes?: bytes = try json.null() ? nil : try json.size(at: path + ".bytes")
                default: try json.skipValue()
                }
            }
            findings.append(
                ReportSnapshot.FindingRecord(
                    rule: try required(rule, path + ".rule"), severity: try required(severity, path + ".severity"),
                    path: try required(findingPath, path + ".path"), message: try required(message, path + ".message"),
                    fingerprint: try required(fingerprint, path + ".fingerprint"), bytes: bytes))
        }
        return findings
    }
}
