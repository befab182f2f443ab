import StocktakePropertyLists

/// One cookie of a `Cookies.binarycookies` file.
public struct StoredCookie: Sendable, Equatable {
    public let domain: String
    public let name: String
    public let path: String
    public let value: String
    /// Seconds since 2001-01-01 UTC (the Mac epoch), as stored.
    public let expires: Double
    public let created: Double
    public let isSecure: Bool
    public let isHTTPOnly: Bool
}

/// Reads HTTPCookieStorage's `Cookies.binarycookies` (`cook`, page sizes, pages of little-endian cookies) checking
/// every size and offset against its page; a repeated offset gives its cookie once, and all decoded counts against
/// the meter, so the file's size bounds the work.
public enum BinaryCookies {
    static let maxPages = 10_000
    static let maxCookiesPerPage = 100_000
    /// Cookies decoded from one file. Safari's jar on a busy Mac holds a few thousand; an app's, far fewer.
    static let maxCookies = 20_000
    /// Bytes of one cookie string read (a domain, a name, a path, a value).
    static let maxStringBytes = 64 << 10

    public static func parse(_ bytes: [UInt8], meter: ContentMeter? = nil) throws(StoreReadError) -> [StoredCookie] {
        let meter = meter ?? ContentMeter()
        guard bytes.count >= 8, bytes.starts(with: Array("cook".utf8)) else {
            throw StoreReadError("not a binarycookies file: no `cook` signature")
        }
        let pageCount = Int(bytes[...].uint32(at: 4, bigEndian: true))
        guard pageCount <= maxPages, 8 + pageCount * 4 <= bytes.count else {
            throw StoreReadError("declares \(pageCount) pages, more than the file's \(bytes.count) bytes can hold")
        }
        var offset = 8 + pageCount * 4
        var cookies: [StoredCookie] = []
        for page in 0..<pageCount {
            let size = Int(bytes[...].uint32(at: 8 + page * 4, bigEndian: true))
            guard size >= 8, offset + size <= bytes.count else {
                throw StoreReadError(
                    "page \(page + 1) of \(size) bytes at offset \(offset) runs past the end of the file")
            }
            cookies += try self.page(
                bytes[offset..<(offset + size)], number: page + 1, decoded: cookies.count, meter: meter)
            offset += size
        }
        return cookies
    }

    private static func page(_ page: ArraySlice<UInt8>, number: Int, decoded: Int, meter: ContentMeter)
        throws(StoreReadError) -> [StoredCookie]
    {
        let start = page.startIndex
        guard page.uint32(at: start, bigEndian: true) == 0x0000_0100 else {
            throw StoreReadError("page \(number) does not start with its 00 00 01 00 header")
        }
        let count = Int(page.uint32(at: start + 4, bigEndian: false))
        guard count <= maxCookiesPerPage, 8 + count * 4 <= page.count else {
            throw StoreReadError("page \(number) declares \(count) cookies, more than its \(page.count) bytes can hold")
        }
        var cookies: [StoredCookie] = []
        var offsets: Set<Int> = []
        for index in 0..<count {
            let cookieOffset = Int(page.uint32(at: start + 8 + index * 4, bigEndian: false))
            // One cookie listed twice is one cookie: repeated offsets must not multiply the work.
            guard offsets.insert(cookieOffset).inserted else { continue }
            if decoded + cookies.count >= maxCookies { meter.stop("more than \(maxCookies) cookies in one file") }
            try meter.require(objects: 1)
            guard cookieOffset >= 8, cookieOffset + 56 <= page.count else {
                throw StoreReadError(
                    "cookie \(index + 1) of page \(number) at offset \(cookieOffset) lies outside its page")
            }
            let cookieStart = start + cookieOffset
            let size = Int(page.uint32(at: cookieStart, bigEndian: false))
            guard size >= 56, cookieOffset + size <= page.count else {
                throw StoreReadError(
                    "cookie \(index + 1) of page \(number) declares \(size) bytes, past the end of its page")
            }
            let cookie = page[cookieStart..<(cookieStart + size)]
            func string(_ field: Int, _ what: String) throws(StoreReadError) -> String {
                let at = Int(cookie.uint32(at: cookieStart + field, bigEndian: false))
                guard at >= 56, at < size else {
                    throw StoreReadError(
                        "the \(what) of cookie \(index + 1) of page \(number) starts outside the cookie (offset \(at))")
                }
                // A browser keeps 4 KiB a cookie: a longer one is cut, as its judgement would cost megabytes.
                let text = cookie[(cookieStart + at)...].prefix { $0 != 0 }.prefix(maxStringBytes)
                try meter.require(bytes: text.count)
                return String(decoding: text, as: UTF8.self)
            }
            let flags = cookie.uint32(at: cookieStart + 8, bigEndian: false)
            cookies.append(
                StoredCookie(
                    domain: try string(16, "domain"), name: try string(20, "name"), path: try string(24, "path"),
                    value: try string(28, "value"),
                    expires: Double(bitPattern: cookie.uint64(at: cookieStart + 40, bigEndian: false)),
                    created: Double(bitPattern: cookie.uint64(at: cookieStart + 48, bigEndian: false)),
                    isSecure: flags & 1 != 0, isHTTPOnly: flags & 4 != 0))
        }
        return cookies
    }
}
