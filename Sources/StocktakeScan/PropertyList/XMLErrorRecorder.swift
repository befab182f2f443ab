import CLibXML2

/// What libxml2 reports while one document is parsed on this thread: structured errors and the generic
/// handler's text, kept off stderr. The first error (or failing that, the first line of text) names the
/// cause; the last one is often just "Premature end of data".
final class XMLErrorRecorder {
    private(set) var firstError: String?
    private var firstText: String?
    private var pendingText = ""
    /// The C side of the generic handler: points back at this recorder while it is routed here.
    private let genericTarget = UnsafeMutablePointer<stocktake_xml_generic_target>.allocate(capacity: 1)

    init() {
        genericTarget.initialize(to: stocktake_xml_generic_target(sink: nil, context: nil))
        genericTarget.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        genericTarget.pointee.sink = { context, text in
            guard let context, let text else { return }
            Unmanaged<XMLErrorRecorder>.fromOpaque(context).takeUnretainedValue().recordText(String(cString: text))
        }
    }

    deinit {
        genericTarget.deinitialize(count: 1)
        genericTarget.deallocate()
    }

    /// The cause to show: the first error, else the first line libxml2 printed.
    var message: String? { firstError ?? firstText ?? nonEmpty(pendingText) }

    /// Routes this thread's structured and generic handlers here; keep the recorder alive until
    /// `silenceThisThread`.
    func routeThisThread() {
        stocktake_xml_route_generic_errors(genericTarget)
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(self).toOpaque()) { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLErrorRecorder>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }
    }

    /// Drops whatever libxml2 reports on this thread from now on (never back to stderr).
    static func silenceThisThread() {
        stocktake_xml_route_generic_errors(nil)
        xmlSetStructuredErrorFunc(nil) { _, _ in }
    }

    // Takes the struct, not a pointer: libxml2 2.12 made the callback's pointer const.
    func record(_ error: xmlError) {
        guard firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        firstError = XMLPropertyListParser.describe(error)
    }

    /// The generic handler may send one line in pieces: they are joined up to the newline.
    private func recordText(_ text: String) {
        pendingText += text
        while let newline = pendingText.firstIndex(of: "\n") {
            let line = String(pendingText[..<newline])
            pendingText = String(pendingText[pendingText.index(after: newline)...])
            if firstText == nil { firstText = nonEmpty(line) }
        }
    }

    private func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}
