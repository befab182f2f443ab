import StocktakeModel

// The formats' published magic numbers, read big-endian as they appear in the file.
extension ContentSniffer {
    /// The kind a binary signature proves, or nil when no signature matches.
    static func signatureKind(_ prefix: UnsafeRawBufferPointer, name: UnsafeBufferPointer<UInt8>) -> ContentKind? {
        let head32 = prefix.bigEndianUInt32(at: 0)
        let head64 = prefix.bigEndianUInt64(at: 0)

        // Databases.
        if head64 == 0x5351_4C69_7465_2066, prefix.bigEndianUInt64(at: 8) == 0x6F72_6D61_7420_3300 {
            return .sqlite  // "SQLite format 3\0"
        }
        if head32 == 0x377F_0682 || head32 == 0x377F_0683, prefix.bigEndianUInt32(at: 4) == 3_007_000 {
            return .sqliteWAL  // WAL magic (either checksum order), then format version 3007000
        }
        if head64 == 0xD9D5_05F9_20A1_63D7 { return .sqliteJournal }  // hot rollback journal

        // Property lists.
        if head64 == 0x6270_6C69_7374_3030 {  // "bplist00"
            return prefix.contains("$archiver") || prefix.contains("NSKeyedArchiver") ? .keyedArchive : .binaryPlist
        }
        if isXMLPropertyList(prefix) { return .xmlPlist }

        // Images.
        if head64 == 0xAB4B_5458_2031_31BB || head64 == 0xAB4B_5458_2032_30BB,
            prefix.bigEndianUInt32(at: 8) == 0x0D0A_1A0A
        {
            return .ktx  // «KTX 11» / «KTX 20»
        }
        if prefix.byte(at: 0) == 0xFF, prefix.byte(at: 1) == 0xD8, prefix.byte(at: 2) == 0xFF { return .jpeg }
        if head64 == 0x8950_4E47_0D0A_1A0A { return .png }
        if head32 == 0x4749_4638 { return .gif }  // "GIF8"
        if head32 == 0x5249_4646, prefix.bigEndianUInt32(at: 8) == 0x5745_4250 { return .webp }  // "RIFF"…"WEBP"

        // ISO base media (HEIF, MP4, QuickTime).
        if let kind = isoMediaKind(prefix, name: name) { return kind }

        // Documents, archives, transport and cookies.
        if head32 == 0x2550_4446, prefix.byte(at: 4) == 0x2D { return .pdf }  // "%PDF-"
        if head32 == 0x504B_0304 || head32 == 0x504B_0506 { return .zip }  // local header, or empty archive
        if prefix.byte(at: 0) == 0x1F, prefix.byte(at: 1) == 0x8B, prefix.byte(at: 2) == 0x08 { return .gzip }
        if AppleDouble.hasHeader(prefix) { return .appleDouble }
        // "cook" then a page count: requiring one below 65536 keeps text starting "cook" out.
        if head32 == 0x636F_6F6B, let pages = prefix.bigEndianUInt32(at: 4), pages < 0x1_0000 { return .binaryCookies }

        // Realm: "T-DB" at 16 after two file offsets, whose high bytes are zero: a NUL up front keeps text out.
        if prefix.bigEndianUInt32(at: 16) == 0x542D_4442,
            UnsafeRawBufferPointer(rebasing: prefix[0..<16]).contains("\0")
        {
            return .realm
        }
        return nil
    }

    /// `<?xml` … `<plist` / `<!DOCTYPE plist`, or a bare `<plist` root, after an optional BOM and blanks.
    private static func isXMLPropertyList(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let start = firstNonBlank(prefix)
        if prefix.matches("<plist", at: start) || prefix.matches("<!DOCTYPE plist", at: start) { return true }
        guard prefix.matches("<?xml", at: start) else { return false }
        let rest = UnsafeRawBufferPointer(rebasing: prefix[start...])
        return rest.contains("<plist") || rest.contains("<!DOCTYPE plist")
    }

    /// ISO base media files: `ftyp` at 4 with a major brand at 8, or an old QuickTime first atom.
    private static func isoMediaKind(_ prefix: UnsafeRawBufferPointer, name: UnsafeBufferPointer<UInt8>) -> ContentKind?
    {
        guard let boxSize = prefix.bigEndianUInt32(at: 0), let boxType = prefix.bigEndianUInt32(at: 4) else {
            return nil
        }
        if boxType == 0x6674_7970 {  // "ftyp"
            guard let brand = prefix.bigEndianUInt32(at: 8) else { return nil }
            if let kind = brandKind(brand) { return kind }
            // A generic or unknown brand: the extension tells audio, QuickTime or image apart.
            switch ContentKind.named(name) {
            case .m4a: return .m4a
            case .mov: return .mov
            case .heic: return .heic
            default: return .mp4
            }
        }
        // Size 0 (to end of file), 1 (64-bit size follows) or at least the 8-byte box header.
        guard boxSize <= 1 || boxSize >= 8 else { return nil }
        switch boxType {
        case 0x6D6F_6F76, 0x6D64_6174, 0x7769_6465, 0x6672_6565:  // moov, mdat, wide, free
            switch ContentKind.named(name) {
            case .mp4: return .mp4
            case .m4a: return .m4a
            default: return .mov
            }
        default: return nil
        }
    }

    /// Major brands that name one kind whatever the extension says.
    private static func brandKind(_ brand: UInt32) -> ContentKind? {
        switch brand {
        // HEIF still images and sequences (HEVC or AVC coded), and AVIF, HEIF's AV1 profile.
        case 0x6865_6963, 0x6865_6978, 0x6865_696D, 0x6865_6973,  // heic heix heim heis
            0x6865_7663, 0x6865_7678, 0x6865_766D, 0x6865_7673,  // hevc hevx hevm hevs
            0x6D69_6631, 0x6D69_6632, 0x6D73_6631,  // mif1 mif2 msf1
            0x6176_6966, 0x6176_6973:  // avif avis
            .heic
        case 0x4D34_4120, 0x4D34_4220, 0x4D34_5020: .m4a  // "M4A ", "M4B " (audiobook), "M4P " (protected)
        case 0x7174_2020: .mov  // "qt  "
        default: nil
        }
    }

    static func firstNonBlank(_ bytes: UnsafeRawBufferPointer) -> Int {
        var index = bytes.matches("\u{FEFF}", at: 0) ? 3 : 0  // UTF-8 byte-order mark
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        return index
    }

    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
