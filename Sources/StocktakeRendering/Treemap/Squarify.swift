/// A rectangle in layout units (the treemap's reference frame, not pixels).
public struct LayoutRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var area: Double { width * height }

    /// The rectangle with `top` taken off the top and `side` off the other three edges; empty when too small.
    public func inset(top: Double, side: Double) -> LayoutRect {
        LayoutRect(x: x + side, y: y + top, width: max(0, width - 2 * side), height: max(0, height - top - side))
    }
}

/// The squarified treemap layout (Bruls, Huizing and van Wijk, "Squarified Treemaps", 2000): weights are laid
/// largest first in rows along the shorter side of what is left, and a row takes another item only while that
/// makes its worst aspect ratio no worse. Areas are exactly proportional to the weights and fill the bounds.
public enum Squarify {
    /// One rectangle per weight, in the order given. Weights of zero or less get an empty rectangle at the
    /// bounds' far corner; if no weight is positive, all are empty.
    public static func layout(_ weights: [Double], in bounds: LayoutRect) -> [LayoutRect] {
        let corner = LayoutRect(x: bounds.x + bounds.width, y: bounds.y + bounds.height, width: 0, height: 0)
        var rects = [LayoutRect](repeating: corner, count: weights.count)
        let order = weights.indices.filter { weights[$0] > 0 && weights[$0].isFinite }.sorted {
            weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1
        }
        let total = order.reduce(0) { $0 + weights[$1] }
        guard total > 0, bounds.area > 0 else { return rects }
        let scale = bounds.area / total
        var free = bounds
        var start = 0
        while start < order.count {
            let side = min(free.width, free.height)
            var end = start + 1
            var rowArea = weights[order[start]] * scale
            var worst = worstRatio(largest: rowArea, smallest: rowArea, sum: rowArea, side: side)
            while end < order.count {
                let area = weights[order[end]] * scale
                // Sorted largest first, so the row's largest is its first and the newcomer its smallest.
                let candidate = worstRatio(
                    largest: weights[order[start]] * scale, smallest: area, sum: rowArea + area, side: side)
                guard candidate <= worst else { break }
                worst = candidate
                rowArea += area
                end += 1
            }
            let last = end == order.count
            free = place(
                order[start..<end], areas: { weights[$0] * scale }, rowArea: rowArea, in: free, last: last, into: &rects
            )
            start = end
        }
        return rects
    }

    /// The worst aspect ratio of a row of `sum` area laid along a side of length `side`.
    static func worstRatio(largest: Double, smallest: Double, sum: Double, side: Double) -> Double {
        let sideSquared = side * side
        let sumSquared = sum * sum
        return max(sideSquared * largest / sumSquared, sumSquared / (sideSquared * smallest))
    }

    /// Lays one row along the shorter side of `free` and returns what is left. The last row takes all that is
    /// left, so rounding never leaves a gap at the far edge.
    private static func place(
        _ row: ArraySlice<Int>, areas: (Int) -> Double, rowArea: Double, in free: LayoutRect, last: Bool,
        into rects: inout [LayoutRect]
    ) -> LayoutRect {
        // A column at the left of a wide space, a row at the top of a tall one.
        let vertical = free.width >= free.height
        let length = vertical ? free.height : free.width
        let thickness =
            last ? (vertical ? free.width : free.height) : min(rowArea / length, vertical ? free.width : free.height)
        var offset = 0.0
        for (position, index) in row.enumerated() {
            let isFinal = position == row.count - 1
            let extent = isFinal ? length - offset : areas(index) / rowArea * length
            rects[index] =
                vertical
                ? LayoutRect(x: free.x, y: free.y + offset, width: thickness, height: extent)
                : LayoutRect(x: free.x + offset, y: free.y, width: extent, height: thickness)
            offset += extent
        }
        return vertical
            ? LayoutRect(x: free.x + thickness, y: free.y, width: free.width - thickness, height: free.height)
            : LayoutRect(x: free.x, y: free.y + thickness, width: free.width, height: free.height - thickness)
    }
}
