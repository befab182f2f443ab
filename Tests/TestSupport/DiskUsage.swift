import Foundation

/// GNU `du`, the oracle for sizes.
public enum DiskUsage {
    /// `du -s -B1 PATH` (allocated bytes) or `du -s -b PATH` (apparent bytes).
    public static func bytes(_ path: String, apparent: Bool = false) throws -> Int64 {
        let result = try StocktakeProcess.runCommand(["/usr/bin/du", "-s", apparent ? "-b" : "-B1", path])
        guard result.status == 0, let number = result.stdout.split(separator: "\t").first.flatMap({ Int64($0) }) else {
            throw TemporaryTree.Failure(description: "du failed: \(result.stderr)")
        }
        return number
    }
}
