/// A count and its noun in the right number, for every text people read: "1 file", "3 files", "1 entry",
/// "0 entries". One helper so that no output says "1 files". Regular nouns need only the singular.
public enum Plural {
    /// "3 files": the count, then the noun. `number` shows the count otherwise (grouped digits: "1,204 files").
    public static func count(
        _ count: some BinaryInteger, _ singular: String, _ plural: String? = nil, number: String? = nil
    ) -> String {
        (number ?? String(count)) + " " + noun(count, singular, plural)
    }

    /// The noun alone, for a count shown apart from it ("file was" / "files were" style phrasing).
    public static func noun(_ count: some BinaryInteger, _ singular: String, _ plural: String? = nil) -> String {
        count.magnitude == 1 ? singular : plural ?? regularPlural(singular)
    }

    /// English's regular rules: "entry" → "entries", "match" → "matches", "file" → "files".
    private static func regularPlural(_ singular: String) -> String {
        if singular.hasSuffix("y"), let before = singular.dropLast().last, !"aeiou".contains(before) {
            return singular.dropLast() + "ies"
        }
        if singular.hasSuffix("s") || singular.hasSuffix("x") || singular.hasSuffix("ch") || singular.hasSuffix("sh") {
            return singular + "es"
        }
        return singular + "s"
    }
}
