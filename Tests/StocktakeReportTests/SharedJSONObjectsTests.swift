import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport
import TestSupport
import Testing

/// The objects several JSON documents share have one writer: a finding in diff.json is report.json's finding
/// without `fix`, member for member and in the same order, hostile messages and all.
@Suite struct SharedJSONObjectsTests {
    static func render(_ body: (JSONStream) throws -> Void) throws -> OrderedJSON {
        var bytes: [UInt8] = []
        let json = JSONStream { bytes.append(contentsOf: $0) }
        try body(json)
        try json.finish()
        return try OrderedJSON.parse(bytes)
    }

    @Test func aDiffFindingIsTheReportFindingWithoutItsFix() throws {
        let report = FindingsReport.make()
        let document = try OrderedJSON.parse(try FindingsReport.rendered(.json, report))
        let written = try #require(document["findings"]?.items)
        #expect(written.count == report.findings.count && written.count >= FindingsReport.hostileFindings.count)
        for (finding, object) in zip(report.findings, written) {
            guard case .object(let members) = object else {
                Issue.record("a finding that is not an object: \(object)")
                continue
            }
            #expect(members.contains { $0.key == "fix" && $0.value == .string(finding.fix) })
            let diffForm = try Self.render { try $0.finding(ReportSnapshot.FindingRecord(finding)) }
            #expect(diffForm == .object(members.filter { $0.key != "fix" }), "\(finding.rule) at \(finding.path)")
        }
    }

    @Test func aBackupDomainIsTheSameObjectWithOrWithoutTheEstimateFlag() throws {
        let domain = DeviceBackupSummary.Domain(
            name: "AppDomainGroup-group.\u{1B}[31m\"x\"", kind: .appGroup, identifier: "group.\u{1B}[31m\"x\"",
            total: SizeTotal(files: 3, apparentBytes: 5000, allocatedBytes: 12_288), symlinks: 1, directories: 2)
        let plain = try Self.render { try $0.backupDomain(domain) }
        let estimated = try Self.render { try $0.backupDomain(domain, estimated: true) }
        guard case .object(let members) = estimated else {
            Issue.record("not an object: \(estimated)")
            return
        }
        let expectedKeys = (plain.keys ?? []).flatMap {
            $0 == "allocatedBytes" ? [$0, "allocatedBytesEstimated"] : [$0]
        }
        #expect(members.map(\.key) == expectedKeys)
        #expect(.object(members.filter { $0.key != "allocatedBytesEstimated" }) == plain)
        #expect(plain["domain"]?.stringValue == domain.name && plain["symlinks"] == .number("1"))
    }
}
