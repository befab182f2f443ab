import StocktakeModel

/// Property lists written by Python's plistlib (3.11), embedded byte for byte, plus a builder for
/// hand-made binary plists that plistlib would never write (cycles, bad offsets, odd sizes).
enum PropertyListFixtures {
    /// The backup-exclusion xattr value: the string "com.apple.backupd".
    static let backupExclusion = bytes(
        hex:
            "62706c69737430305f1011636f6d2e6170706c652e6261636b757064080000000000000101000000000000000100"
            + "00000000000000000000000000001c"
    )

    /// `plistlib.dumps(2**64 - 1, fmt=FMT_BINARY)`: a 16-byte integer above Int64.max.
    static let unsignedMaxBinary = bytes(
        hex:
            "62706c6973743030140000000000000000ffffffffffffffff08000000000000010100000000000000010000000000"
            + "0000000000000000000019"
    )

    /// The value of `allTypesBinary` and `allTypesXML`.
    static let allTypesValue: PropertyListValue = .dictionary([
        "string": .string("hello"),
        "long ascii": .string("a string longer than fifteen characters"),
        "unicode": .string("Grüße, 世界 🎉"),
        "long unicode": .string(String(repeating: "ü", count: 20)),
        "small": .integer(7), "int16": .integer(300), "int32": .integer(70000), "int64": .integer(1 << 40),
        "max": .integer(Int64.max), "negative": .integer(-42), "min": .integer(Int64.min),
        "real": .real(3.5), "yes": .bool(true), "no": .bool(false),
        "date": .date(816_919_200),  // 2026-11-21T02:00:00Z
        "data": .data(Array(0..<20)),
        "empty data": .data([]),
        "nested": .array([.integer(1), .string("two"), .array([.real(3.25), .dictionary(["four": .integer(4)])])]),
        "empty array": .array([]),
        "empty dict": .dictionary([:]),
    ])

    // plistlib.dumps(allTypes, fmt=FMT_BINARY); allTypes is allTypesValue as a Python dict.
    static let allTypesBinary = bytes(
        hex:
            "62706c6973743030df10140102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222a2b2c"
            + "2d2e2f546461746154646174655b656d7074792061727261795a656d70747920646174615a656d707479206469637455"
            + "696e74313655696e74333255696e7436345a6c6f6e672061736369695c6c6f6e6720756e69636f6465536d6178536d69"
            + "6e586e65676174697665566e6573746564526e6f547265616c55736d616c6c56737472696e6757756e69636f64655379"
            + "65734f1014000102030405060708090a0b0c0d0e0f101112133341c8589950000000a040d011012c1200011170130000"
            + "0100000000005f10276120737472696e67206c6f6e676572207468616e206669667465656e2063686172616374657273"
            + "6f101400fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc137fffffff"
            + "ffffffff13800000000000000013ffffffffffffffd6a323242510015374776fa2262723400a000000000000d1282954"
            + "666f757210040823400c00000000000010075568656c6c6f6c0047007200fc00df0065002c00204e16754c0020d83cdf"
            + "8909000800330038003d00490054005f0065006b0071007c0089008d0091009a00a100a400a900af00b600be00c200d9"
            + "00e200e300e400e500e800ed00f60120014b0154015d0166016a016c01700173017c017f018401860187019001920198"
            + "01b100000000000002010000000000000030000000000000000000000000000001b2"
    )

    /// `plistlib.dumps(list(range(299)) + ["ü" * 300], fmt=FMT_BINARY)`: 2-byte object references,
    /// 2-byte offsets and 2-byte counts.
    static let wideReferencesBinary = bytes(
        hex:
            "62706c6973743030af11012c000100020003000400050006000700080009000a000b000c000d000e000f001000110012"
            + "0013001400150016001700180019001a001b001c001d001e001f0020002100220023002400250026002700280029002a"
            + "002b002c002d002e002f0030003100320033003400350036003700380039003a003b003c003d003e003f004000410042"
            + "0043004400450046004700480049004a004b004c004d004e004f0050005100520053005400550056005700580059005a"
            + "005b005c005d005e005f0060006100620063006400650066006700680069006a006b006c006d006e006f007000710072"
            + "0073007400750076007700780079007a007b007c007d007e007f0080008100820083008400850086008700880089008a"
            + "008b008c008d008e008f0090009100920093009400950096009700980099009a009b009c009d009e009f00a000a100a2"
            + "00a300a400a500a600a700a800a900aa00ab00ac00ad00ae00af00b000b100b200b300b400b500b600b700b800b900ba"
            + "00bb00bc00bd00be00bf00c000c100c200c300c400c500c600c700c800c900ca00cb00cc00cd00ce00cf00d000d100d2"
            + "00d300d400d500d600d700d800d900da00db00dc00dd00de00df00e000e100e200e300e400e500e600e700e800e900ea"
            + "00eb00ec00ed00ee00ef00f000f100f200f300f400f500f600f700f800f900fa00fb00fc00fd00fe00ff010001010102"
            + "0103010401050106010701080109010a010b010c010d010e010f0110011101120113011401150116011701180119011a"
            + "011b011c011d011e011f0120012101220123012401250126012701280129012a012b012c100010011002100310041005"
            + "1006100710081009100a100b100c100d100e100f1010101110121013101410151016101710181019101a101b101c101d"
            + "101e101f1020102110221023102410251026102710281029102a102b102c102d102e102f103010311032103310341035"
            + "1036103710381039103a103b103c103d103e103f1040104110421043104410451046104710481049104a104b104c104d"
            + "104e104f1050105110521053105410551056105710581059105a105b105c105d105e105f106010611062106310641065"
            + "1066106710681069106a106b106c106d106e106f1070107110721073107410751076107710781079107a107b107c107d"
            + "107e107f1080108110821083108410851086108710881089108a108b108c108d108e108f109010911092109310941095"
            + "1096109710981099109a109b109c109d109e109f10a010a110a210a310a410a510a610a710a810a910aa10ab10ac10ad"
            + "10ae10af10b010b110b210b310b410b510b610b710b810b910ba10bb10bc10bd10be10bf10c010c110c210c310c410c5"
            + "10c610c710c810c910ca10cb10cc10cd10ce10cf10d010d110d210d310d410d510d610d710d810d910da10db10dc10dd"
            + "10de10df10e010e110e210e310e410e510e610e710e810e910ea10eb10ec10ed10ee10ef10f010f110f210f310f410f5"
            + "10f610f710f810f910fa10fb10fc10fd10fe10ff11010011010111010211010311010411010511010611010711010811"
            + "010911010a11010b11010c11010d11010e11010f11011011011111011211011311011411011511011611011711011811"
            + "011911011a11011b11011c11011d11011e11011f11012011012111012211012311012411012511012611012711012811"
            + "012911012a6f11012c00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00"
            + "fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc00fc0008026402660268026a026c026e02"
            + "700272027402760278027a027c027e02800282028402860288028a028c028e02900292029402960298029a029c029e02"
            + "a002a202a402a602a802aa02ac02ae02b002b202b402b602b802ba02bc02be02c002c202c402c602c802ca02cc02ce02"
            + "d002d202d402d602d802da02dc02de02e002e202e402e602e802ea02ec02ee02f002f202f402f602f802fa02fc02fe03"
            + "000302030403060308030a030c030e03100312031403160318031a031c031e03200322032403260328032a032c032e03"
            + "300332033403360338033a033c033e03400342034403460348034a034c034e03500352035403560358035a035c035e03"
            + "600362036403660368036a036c036e03700372037403760378037a037c037e03800382038403860388038a038c038e03"
            + "900392039403960398039a039c039e03a003a203a403a603a803aa03ac03ae03b003b203b403b603b803ba03bc03be03"
            + "c003c203c403c603c803ca03cc03ce03d003d203d403d603d803da03dc03de03e003e203e403e603e803ea03ec03ee03"
            + "f003f203f403f603f803fa03fc03fe04000402040404060408040a040c040e04100412041404160418041a041c041e04"
            + "200422042404260428042a042c042e04300432043404360438043a043c043e04400442044404460448044a044c044e04"
            + "500452045404560458045a045c045e0460046204640467046a046d0470047304760479047c047f048204850488048b04"
            + "8e049104940497049a049d04a004a304a604a904ac04af04b204b504b804bb04be04c104c404c704ca04cd04d004d304"
            + "d604d904dc04df04e204e50000000000000202000000000000012d00000000000000000000000000000741"
    )

    /// An NSKeyedArchiver-shaped archive with UIDs (one of them 300, a 2-byte UID).
    static let keyedArchiveBinary = bytes(
        hex:
            "62706c6973743030d401020304050614175924617263686976657258246f626a656374735424746f7058247665727369"
            + "6f6e5f100f4e534b657965644172636869766572a407080d1355246e756c6cd2090a0b0c5624636c617373594e532e73"
            + "7472696e6780025568656c6c6fd20e0f10115824636c61737365735a24636c6173736e616d65a21112584e5353747269"
            + "6e67584e534f626a65637481012cd1151654726f6f74800112000186a008111b24293244494f545b65676d727b868992"
            + "9b9ea1a6a800000000000001010000000000000018000000000000000000000000000000ad"
    )

    /// `{"CFBundleIdentifier": "com.example.app", "n": 1, "nested": {"k": "v"}}`.
    static let nestedDictionaryBinary = bytes(
        hex:
            "62706c6973743030d30102030405065f1012434642756e646c654964656e746966696572516e566e65737465645f100f"
            + "636f6d2e6578616d706c652e6170701001d10708516b5176080f24262d3f414446000000000000010100000000000000"
            + "0900000000000000000000000000000048"
    )

    /// `plistlib.dumps(allTypes, fmt=FMT_XML)`, with the long string written by interpolation.
    static let allTypesXML = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        	<key>data</key>
        	<data>
        	AAECAwQFBgcICQoLDA0ODxAREhM=
        	</data>
        	<key>date</key>
        	<date>2026-11-21T02:00:00Z</date>
        	<key>empty array</key>
        	<array/>
        	<key>empty data</key>
        	<data>
        	</data>
        	<key>empty dict</key>
        	<dict/>
        	<key>int16</key>
        	<integer>300</integer>
        	<key>int32</key>
        	<integer>70000</integer>
        	<key>int64</key>
        	<integer>1099511627776</integer>
        	<key>long ascii</key>
        	<string>a string longer than fifteen characters</string>
        	<key>long unicode</key>
        	<string>\(String(repeating: "ü", count: 20))</string>
        	<key>max</key>
        	<integer>9223372036854775807</integer>
        	<key>min</key>
        	<integer>-9223372036854775808</integer>
        	<key>negative</key>
        	<integer>-42</integer>
        	<key>nested</key>
        	<array>
        		<integer>1</integer>
        		<string>two</string>
        		<array>
        			<real>3.25</real>
        			<dict>
        				<key>four</key>
        				<integer>4</integer>
        			</dict>
        		</array>
        	</array>
        	<key>no</key>
        	<false/>
        	<key>real</key>
        	<real>3.5</real>
        	<key>small</key>
        	<integer>7</integer>
        	<key>string</key>
        	<string>hello</string>
        	<key>unicode</key>
        	<string>Grüße, 世界 🎉</string>
        	<key>yes</key>
        	<true/>
        </dict>
        </plist>
        """.utf8)
}

/// Lays out a binary plist from raw object encodings: header, objects, offset table, trailer.
/// Lets a test say "object 0 is an array holding object 0" without counting bytes by hand.
struct BinaryPlistBuilder {
    var objects: [[UInt8]]
    var topObject: UInt64 = 0
    var offsetIntSize: UInt8 = 2
    var objectRefSize: UInt8 = 1
    /// Overrides for the trailer, to describe files that lie about themselves.
    var objectCountOverride: UInt64?
    var offsetTableOffsetOverride: UInt64?
    var offsetOverrides: [Int: UInt64] = [:]

    init(_ objects: [[UInt8]]) {
        self.objects = objects
    }

    var bytes: [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for object in objects {
            offsets.append(UInt64(bytes.count))
            bytes += object
        }
        let tableOffset = UInt64(bytes.count)
        for (index, offset) in offsets.enumerated() {
            bytes += bigEndian(offsetOverrides[index] ?? offset, size: Int(offsetIntSize))
        }
        bytes += [0, 0, 0, 0, 0, 0, offsetIntSize, objectRefSize]
        bytes += bigEndian(objectCountOverride ?? UInt64(objects.count), size: 8)
        bytes += bigEndian(topObject, size: 8)
        bytes += bigEndian(offsetTableOffsetOverride ?? tableOffset, size: 8)
        return bytes
    }

    /// An array (marker 0xA) of 1-byte references.
    static func array(_ references: [UInt8]) -> [UInt8] {
        container(0xA0, count: references.count) + references
    }

    /// A dictionary (marker 0xD): all key references, then all value references.
    static func dictionary(keys: [UInt8], values: [UInt8]) -> [UInt8] {
        container(0xD0, count: keys.count) + keys + values
    }

    static func ascii(_ text: String) -> [UInt8] {
        container(0x50, count: text.utf8.count) + Array(text.utf8)
    }

    static func container(_ marker: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x11] + bigEndian(UInt64(count), size: 2)
    }
}

func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
}

func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8).map {
        $0 <= UInt8(ascii: "9") ? $0 - UInt8(ascii: "0") : ($0 | 0x20) - UInt8(ascii: "a") + 10
    }
    return stride(from: 0, to: digits.count - 1, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
}
