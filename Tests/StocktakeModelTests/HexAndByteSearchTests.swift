import StocktakeModel
import Testing

@Suite struct HexAndByteSearchTests {
    @Test func hexDigitsBothCases() {
        #expect(Hex.lowercase([0x00, 0x0A, 0xFF, 0x7E]) == "000aff7e")
        #expect(Hex.uppercase(0x0A) == "0A" && Hex.uppercase(0xFF) == "FF")
        #expect("0123456789abcdefABCDEF".utf8.allSatisfy(Hex.isDigit))
        #expect(!"gG/:@`".utf8.contains(where: Hex.isDigit))
    }

    @Test func percentEncodingKeepsOnlyUnreservedAndWhatIsAsked() {
        #expect(Hex.percentEncoded("a b/c#d?e%f:g~h.i_j-k".utf8) == "a%20b%2Fc%23d%3Fe%25f%3Ag~h.i_j-k")
        #expect(Hex.percentEncoded("a b/c".utf8, keeping: [UInt8(ascii: "/")]) == "a%20b/c")
        #expect(Hex.percentEncoded("é".utf8) == "%C3%A9")
    }

    @Test func uuidShape() {
        let uuid = "123e4567-E89B-12d3-a456-426614174000"
        #expect(Hex.isUUID(uuid.utf8))
        #expect(Hex.startsWithUUID((uuid + ".plist").utf8) && !Hex.isUUID((uuid + ".plist").utf8))
        #expect(!Hex.isUUID("123e4567-e89b-12d3-a456-42661417400".utf8), "one digit short")
        #expect(!Hex.isUUID("123e4567_e89b-12d3-a456-426614174000".utf8), "a dash missing")
        #expect(!Hex.isUUID("123e4567-e89b-12d3-a456-42661417400g".utf8), "not hex")
        #expect(!Hex.startsWithUUID("123e".utf8))
    }

    @Test func byteSearch() {
        let haystack = Array("<tr><td>a</td><td>b</td></tr>".utf8)
        #expect(ByteSearch.firstIndex(of: "<td>".utf8, in: haystack[...]) == 4)
        #expect(ByteSearch.firstIndex(of: "<td>".utf8, in: haystack[...], from: 5) == 14)
        #expect(ByteSearch.firstIndex(of: "<th>".utf8, in: haystack[...]) == nil)
        #expect(ByteSearch.firstIndex(of: "</tr>".utf8, in: haystack[...]) == haystack.count - 5, "at the very end")
        #expect(ByteSearch.firstIndex(of: "td".utf8, in: haystack[10...]) == 11, "offsets are the slice's own indices")
        #expect(!ByteSearch.contains("x".utf8, in: [][...]))
        #expect(ByteSearch.firstIndex(of: [UInt8](), in: haystack[...], from: 3) == 3)
    }
}
