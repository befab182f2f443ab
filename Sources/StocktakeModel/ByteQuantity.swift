import Foundation

/// Sizes written by people.
public enum ByteQuantity {
    /// The shortest exact text `parse` reads back: `50MB`, `4KiB`, else the plain number.
    public static func text(_ bytes: Int64) -> String {
        guard bytes > 0 else { return String(bytes) }
        for (unit, scale) in [
            ("GB", Int64(1_000_000_000)), ("MB", 1_000_000), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KB", 1_000),
            ("KiB", 1 << 10),
        ] where bytes % scale == 0 { return "\(bytes / scale)\(unit)" }
        return String(bytes)
    }

    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.replacingOccurrences(of: "_", with: "").trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let number = Double(digits), number >= 0, let scale = scales[unit] else { return nil }
        let bytes = (number * scale).rounded()
        return bytes < 9.2e18 ? Int64(bytes) : nil
    }

    /// The units `parse` reads (lowercased) and their sizes.
    private static let scales: [String: Double] = [
        "": 1, "b": 1, "bytes": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
        "kib": 1024, "mib": 1024 * 1024, "gib": 1024 * 1024 * 1024,
    ]
}
