/// Turning raw name bytes into text. Names in a container are attacker-controlled and need not be UTF-8.
public enum PathText {
    public static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// Readable form: invalid sequences become U+FFFD. Pair with the raw bytes wherever loss matters.
    public static func display(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
