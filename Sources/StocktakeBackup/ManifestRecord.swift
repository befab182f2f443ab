import StocktakeModel
import StocktakePropertyLists
import StocktakeScan

/// One row of `Manifest.db`'s `Files` table, with what its `MBFile` archive says.
package struct ManifestRecord: Sendable, Equatable {
    /// SHA-1 of `domain-relativePath`, lowercase hex: names the content file `<first two>/<fileID>`.
    package let fileID: String
    package let domain: String
    /// Relative to the domain root, `/`-separated; empty for the root. Raw bytes: names need not be UTF-8.
    package let relativePath: [UInt8]
    package let type: EntryType
    package let size: Int64
    /// `MBFile` `Mode` (type and permission bits), when present.
    package let mode: Int64?
    /// `MBFile` `LastModified`, seconds since 1970.
    package let modified: Int64
    package let symlinkTarget: [UInt8]?
    /// `MBFile` `ProtectionClass` (1 complete … 4 none); 0 when the archive does not say.
    package let protectionClass: UInt8

    /// `ProtectionClass` 4 (`NSFileProtectionNone`): the file's key is available whenever the device is on.
    package static let noProtection: UInt8 = 4

    package init(
        fileID: String, domain: String, relativePath: [UInt8], type: EntryType, size: Int64, mode: Int64?,
        modified: Int64, symlinkTarget: [UInt8]?, protectionClass: UInt8 = 0
    ) {
        (self.fileID, self.domain, self.relativePath, self.type) = (fileID, domain, relativePath, type)
        (self.size, self.mode, self.modified) = (size, mode, modified)
        (self.symlinkTarget, self.protectionClass) = (symlinkTarget, protectionClass)
    }

    /// Files and symbolic links: what the apps listing and the backed-up totals count.
    package var isFileLike: Bool { type != .directory }

    /// The `Files.flags` column: 1 file, 2 directory, 4 symbolic link.
    static func type(flags: Int64, mode: Int64?) -> EntryType {
        // Unknown flags: the mode's file-type bits still say what it is.
        switch (flags, mode.map { $0 & 0o170000 }) {
        case (1, _): .file
        case (2, _): .directory
        case (4, _): .symlink
        case (_, 0o100000?): .file
        case (_, 0o040000?): .directory
        case (_, 0o120000?): .symlink
        default: .unknown
        }
    }
}

/// An `MBFile` as `NSKeyedArchiver` stores it: `$top.root` names the object in `$objects` holding its properties.
struct MBFile: Equatable {
    var size: Int64
    var mode: Int64?
    var modified: Int64
    var target: [UInt8]?
    var protectionClass: UInt8 = 0

    struct Failure: Error {
        let reason: String
    }

    static func decode(_ blob: [UInt8]) throws(Failure) -> MBFile {
        let archive: PropertyListValue
        do {
            archive = try PropertyListReader.parse(blob)
        } catch {
            throw Failure(reason: "its MBFile is not a property list this reader accepts: \(error)")
        }
        guard case .array(let objects)? = archive["$objects"] else {
            throw Failure(reason: "no $objects array (not a keyed archive)")
        }
        guard case .uid(let rootReference)? = archive["$top"]?["root"] else {
            throw Failure(reason: "no $top root reference")
        }
        func object(_ reference: UInt64) -> PropertyListValue? {
            reference < UInt64(objects.count) ? objects[Int(reference)] : nil
        }
        guard let root = object(rootReference), case .dictionary = root else {
            throw Failure(reason: "$top root \(rootReference) is not an object of the archive's \(objects.count)")
        }
        if case .uid(let classReference)? = root["$class"],
            let name = object(classReference)?["$classname"]?.stringValue, name != "MBFile"
        {
            throw Failure(reason: "the archived object is a \(name), not an MBFile")
        }
        guard let size = integer(root["Size"]) else { throw Failure(reason: "the MBFile has no Size") }
        guard size >= 0 else { throw Failure(reason: "the MBFile has a negative Size \(size)") }
        var target: [UInt8]?
        if case .uid(let reference)? = root["Target"] {
            // A plain string, or an NSString archived as {NS.string}; "$null" means none.
            let value = object(reference)
            if let text = value?.stringValue ?? value?["NS.string"]?.stringValue, text != "$null" {
                target = Array(text.utf8)
            }
            if case .data(let bytes)? = value?["NS.bytes"] { target = bytes }
        } else if let text = root["Target"]?.stringValue {
            target = Array(text.utf8)
        }
        // Classes are small numbers (1–11); anything else is not one.
        let protection = integer(root["ProtectionClass"]).flatMap { (1...255).contains($0) ? UInt8($0) : nil } ?? 0
        return MBFile(
            size: size, mode: integer(root["Mode"]),
            modified: unixSeconds(root["LastModified"]) ?? integer(root["LastModified"]) ?? 0, target: target,
            protectionClass: protection)
    }

    private static func integer(_ value: PropertyListValue?) -> Int64? {
        switch value {
        case .integer(let number)?: number
        case .real(let number)? where number.isFinite && abs(number) < 9e18: Int64(number)
        default: nil
        }
    }

    /// Unix seconds of a date (seconds since 2001), which older backups stored instead of Unix seconds.
    static func unixSeconds(_ value: PropertyListValue?) -> Int64? {
        guard case .date(let since2001)? = value, since2001.isFinite, abs(since2001) < 9e15 else { return nil }
        return Int64(since2001) + 978_307_200
    }
}
