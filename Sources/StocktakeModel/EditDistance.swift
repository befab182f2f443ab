/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    /// The candidate nearest to `name`, when it is near enough to be a plausible typo.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        guard let nearest = candidates.min(by: { between($0, name) < between($1, name) }) else { return nil }
        return between(nearest, name) <= max(2, name.count / 2) ? nearest : nil
    }

    /// Up to `limit` candidates, nearest first (ties in the candidates' order), for "the nearest are …".
    public static func nearest(to name: String, among candidates: [String], limit: Int) -> [String] {
        candidates.enumerated().map { (distance: between($0.element, name), order: $0.offset, candidate: $0.element) }
            .sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }.prefix(limit).map(\.candidate)
    }

    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
