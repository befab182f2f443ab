/// English plurals for counts in human text: "1 file", "2 files", "1 entry", "3 entries".
public enum Plural {
    /// The noun as a count of `count` needs it.
    public static func noun(_ singular: String, _ count: Int) -> String {
        if count == 1 || count == -1 { return singular }
        if singular.hasSuffix("y"), let before = singular.dropLast().last, !"aeiou".contains(before) {
            return singular.dropLast() + "ies"
        }
        if singular.hasSuffix("s") || singular.hasSuffix("x") || singular.hasSuffix("ch") || singular.hasSuffix("sh") {
            return singular + "es"
        }
        return singular + "s"
    }

    /// "1 file", "12 files".
    public static func count(_ count: Int, _ singular: String) -> String {
        "\(count) \(noun(singular, count))"
    }
}
