@testable import StocktakeContent

/// The Cookies.binarycookies reader and the cookie judgement on any bytes: cookies or a thrown error, never a
/// trap, an out-of-bounds read or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryCookies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let cookies = try? BinaryCookies.parse(bytes) { _ = CookieSecrets.find(cookies) }
    return 0
}
