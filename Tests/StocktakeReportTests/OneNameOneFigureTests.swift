import Foundation
import Testing

@testable import StocktakeReport

/// A name on the page stands for one figure: the Library folder, which holds several locations, never reads as
/// the location "Library (other)", and the locations table says its rows count files, so a location and the
/// folder of the same name (files and folder blocks) are not two figures under one name.
@Suite struct OneNameOneFigureTests {
    static let html = SyntheticReport.html()

    @Test("the Library folder names no single location, in the map and in Largest folders")
    func libraryIsSeveralLocations() throws {
        #expect(
            Self.html.contains(
                "<td data-label=\"Path\" class=\"path\">Library</td><td data-label=\"Location\" class=\"nowrap\" data-value=\"several locations\">several locations</td>"
            ))
        let tile = try #require(Self.html.range(of: "<title>Library\n"))
        let title = Self.html[tile.upperBound...].prefix { $0 != "<" }
        #expect(title.contains("several locations") && !title.contains("Library (other)"), "\(title)")
        // A folder inside Library other than the named locations still says where it is.
        #expect(Self.html.contains("<title>Library/SplashBoard\n"))
    }

    @Test("the locations table labels its rows as files, apart from the folders of the same name")
    func locationRowsAreFiles() {
        #expect(
            Self.html.contains(
                "<td data-label=\"Location\"><span class=\"swatch\" style=\"background:#7c3aed\" aria-hidden=\"true\"></span>Application Support files"
            ))
        #expect(Self.html.contains("Application Support files <code class=\"muted\">applicationSupport</code>"))
        #expect(Self.html.contains("also counts the blocks of the folders inside it"))
    }
}
