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
        guard let number = Double(digits), number >= 0 else { return nil }
        let scale: Double
        switch unit {
        case "", "b", "bytes": scale = 1
        case "kb", "k": scale = 1e3
        case "mb", "m": scale = 1e6
        case "gb", "g": scale = 1e9
        case "tb", "t": scale = 1e12
        case "kib": scale = 1024
        case "mib": scale = 1024 * 1024
        case "gib": scale = 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = (number * scale).rounded()
        return bytes < 9.2e18 ? Int64(bytes) : nil
    }
}
