import StocktakeHistory
import StocktakeModel
import StocktakeRendering

/// A run's app data by location as a small treemap (the same colours as the report's), beside the app's trend.
struct LocationTreemap: TreemapSource {
    private let locations: [Location]
    private let sizes: [Int64]
    private let nodes: [Int32]

    init(_ run: HistoryRun) {
        locations = Location.allCases.filter { (run.byLocation[$0]?.allocatedBytes ?? 0) > 0 }
        sizes = locations.map { run.byLocation[$0]?.allocatedBytes ?? 0 }
        nodes = locations.indices.map { Int32($0 + 1) }
    }

    var root: Int32 { 0 }
    func parent(_ node: Int32) -> Int32 { node == 0 ? -1 : 0 }
    func children(_ node: Int32) -> ArraySlice<Int32> { node == 0 ? nodes[...] : [] }
    func name(_ node: Int32) -> ArraySlice<UInt8> { node == 0 ? [] : Array(locations[Int(node) - 1].title.utf8)[...] }
    func isFolder(_ node: Int32) -> Bool { node == 0 }
    func bytes(_ node: Int32) -> Int64 { node == 0 ? sizes.saturatingSum() : sizes[Int(node) - 1] }

    /// The picture, or nothing when the run recorded no app data.
    func render(idPrefix: String) -> HTML {
        guard bytes(root) > 0 else { return .empty }
        let layout = TreemapLayout(self, frame: LayoutRect(x: 0, y: 0, width: 1200, height: 240))
        let svg = TreemapSVG(
            layout: layout, source: self, idPrefix: idPrefix, rootName: "App data by location",
            shareOf: "of the app's data"
        ) {
            TreemapLook(classes: TreemapStyle.locationClass(locations[Int($0) - 1]))
        }
        return svg.render(label: "App data by location in the latest run") + legend()
    }

    /// The locations' colours, each with its share, as the report's map legend shows them.
    private func legend() -> HTML {
        var html: HTML = "<p class=\"tm-legend\">"
        for (location, size) in zip(locations, sizes) {
            html += "<span><span class=\"tm-key\" style=\"background:\(ReportPalette.colour(location))\"></span>"
            html += "\(location.title) \(HTMLPieces.size(size))</span>"
        }
        return html + "</p>\n"
    }
}
