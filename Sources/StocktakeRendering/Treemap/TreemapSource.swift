/// A tree as the treemap reads it. Nodes are numbers, the root's parent is -1, and a node's bytes are
/// everything beneath it with itself included, so a folder's bytes are at least the sum of its children's.
public protocol TreemapSource {
    var root: Int32 { get }
    func parent(_ node: Int32) -> Int32
    func children(_ node: Int32) -> ArraySlice<Int32>
    func name(_ node: Int32) -> ArraySlice<UInt8>
    func isFolder(_ node: Int32) -> Bool
    /// The area's measure: allocated bytes, so the picture adds up to the report's totals.
    func bytes(_ node: Int32) -> Int64
}
