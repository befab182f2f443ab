/// A strict little checker for the pages the writer produces: every element closed in order, attribute
/// values quoted, no stray `<` or `&` in text, raw text inside `<script>` and `<style>`. Stricter than
/// libxml2's HTML parser, which accepts unclosed tables at the end of input.
package struct HTMLStructure {
    package struct Element {
        package let name: String
        package let attributes: [(name: String, value: String)]
        /// For `<script>` and `<style>`: the raw text up to the end tag.
        package let rawText: String?
    }

    package private(set) var elements: [Element] = []
    package private(set) var problems: [String] = []
    /// Text content outside tags, entities still encoded.
    package private(set) var text: [String] = []

    static let voidElements: Set<String> = [
        "meta", "br", "hr", "img", "input", "link", "wbr", "area", "base", "col", "source",
    ]

    package init(_ html: String) {
        let bytes = Array(html.utf8)
        var stack: [String] = []
        var i = 0
        var textStart = 0
        func flushText(until end: Int) {
            guard end > textStart else { return }
            let chunk = String(decoding: bytes[textStart..<end], as: UTF8.self)
            text.append(chunk)
            checkEntities(chunk)
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            flushText(until: i)
            if bytes[i...].starts(with: Array("<!DOCTYPE html>".utf8)) {
                i += 15
                textStart = i
                continue
            }
            let closing = i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")
            var j = i + (closing ? 2 : 1)
            let nameStart = j
            while j < bytes.count, Self.isNameByte(bytes[j]) { j += 1 }
            let name = String(decoding: bytes[nameStart..<j], as: UTF8.self).lowercased()
            guard !name.isEmpty else {
                problems.append("stray '<' at byte \(i)")
                i += 1
                textStart = i
                continue
            }
            var attributes: [(String, String)] = []
            while true {
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\n") { j += 1 }
                guard j < bytes.count else {
                    problems.append("unterminated tag <\(name)")
                    break
                }
                if bytes[j] == UInt8(ascii: ">") {
                    j += 1
                    break
                }
                let attributeStart = j
                while j < bytes.count, Self.isNameByte(bytes[j]) { j += 1 }
                let attributeName = String(decoding: bytes[attributeStart..<j], as: UTF8.self)
                guard !attributeName.isEmpty else {
                    problems.append("bad byte in tag <\(name) at \(j)")
                    j += 1
                    continue
                }
                guard j < bytes.count, bytes[j] == UInt8(ascii: "=") else {
                    attributes.append((attributeName, ""))
                    continue
                }
                guard j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "\"") else {
                    problems.append("unquoted attribute \(attributeName) in <\(name)>")
                    j += 1
                    continue
                }
                let valueStart = j + 2
                guard let valueEnd = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else {
                    problems.append("unterminated attribute \(attributeName)")
                    break
                }
                let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
                if value.contains("<") || value.contains(">") {
                    problems.append("raw < or > in attribute \(attributeName)")
                }
                checkEntities(value)
                attributes.append((attributeName, value))
                j = valueEnd + 1
            }
            if closing {
                if stack.last == name {
                    stack.removeLast()
                } else {
                    problems.append("</\(name)> closes <\(stack.last ?? "nothing")> at byte \(i)")
                }
                i = j
                textStart = i
                continue
            }
            var rawText: String?
            if name == "script" || name == "style" {
                let end = Array("</\(name)>".utf8)
                var k = j
                while k + end.count <= bytes.count, !bytes[k..<k + end.count].elementsEqual(end) { k += 1 }
                rawText = String(decoding: bytes[j..<min(k, bytes.count)], as: UTF8.self)
                j = min(k + end.count, bytes.count)
            } else if !Self.voidElements.contains(name) {
                stack.append(name)
            }
            elements.append(Element(name: name, attributes: attributes, rawText: rawText))
            i = j
            textStart = i
        }
        flushText(until: bytes.count)
        if !stack.isEmpty { problems.append("unclosed at end: \(stack)") }
    }

    package func elements(named name: String) -> [Element] { elements.filter { $0.name == name } }

    private mutating func checkEntities(_ chunk: String) {
        var rest = Substring(chunk)
        while let ampersand = rest.firstIndex(of: "&") {
            let after = rest[rest.index(after: ampersand)...]
            let known = ["amp;", "lt;", "gt;", "quot;", "#39;"]
            if !known.contains(where: { after.hasPrefix($0) }) {
                problems.append("bare or unknown entity near: \(after.prefix(12))")
            }
            rest = after
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
    }
}

extension HTMLStructure.Element {
    package func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
}
