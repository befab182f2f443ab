import Foundation
import StocktakeModel
import StocktakeRendering

/// Renders a property-list value as JSON: strings, numbers, booleans, arrays and objects map directly;
/// dates become `{"$date": "<ISO 8601>"}`, data `{"$data": "<base64>"}`, UIDs `{"$uid": n}`.
enum PropertyListJSON {
    static func write(_ value: PropertyListValue, _ json: JSONStream) throws {
        switch value {
        case .string(let text): try json.string(text)
        case .integer(let number): try json.int(number)
        case .real(let number):
            if number.isFinite { try json.double(number) } else { try json.string(String(number)) }
        case .bool(let flag): try json.bool(flag)
        case .date(let seconds):
            try tagged("$date") { try json.string(ReportDates.iso8601(Date(timeIntervalSinceReferenceDate: seconds))) }
        case .data(let bytes): try tagged("$data") { try json.string(Base64.encode(bytes)) }
        case .uid(let number): try tagged("$uid") { try json.int(Int64(clamping: number)) }
        case .array(let items): try json.array { for item in items { try write(item, json) } }
        case .dictionary(let entries):
            try json.object {
                // Byte order of the UTF-8 keys, as JSON tools sort them (Swift's String order normalises first).
                for key in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    try json.field(key) { try write(entries[key]!, json) }
                }
            }
        }

        func tagged(_ tag: String, _ body: () throws -> Void) throws {
            try json.object(compact: true) { try json.field(tag, body) }
        }
    }
}
