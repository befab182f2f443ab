import StocktakeModel

/// What the sensitive-data rules share: one finding per item the content checks found in their store,
/// saying where and what (never the value), and how iOS treats the file. The severity rises to error when
/// the file is backed up (the secret then sits in every device and iCloud backup: MASTG-TEST-0215) or sits in
/// a Documents folder the app shares with the Files app, or when a device backup records the file with data
/// protection class None (MASTG-TEST-0299). The finding's discriminator is the place and the
/// kind, not the value: a hash of a short value (a PIN) would give the value away.
enum SensitiveDataFindings {
    static func findings(_ store: SensitiveItem.Store, in context: PolicyContext) -> [RuleFinding] {
        let own = context.sensitive.filter { $0.store == store }.map { item in
            let entry = context.inventory.entries[Int(item.entry)]
            let exposed = context.documentsExposed == true && entry.location == .documents
            return finding(item, file: entry, exposed: exposed, index: item.entry, path: nil, companion: nil)
        }
        // A companion's file is reported as `<container>/<path>`, against the audited container's root entry.
        let companions = context.companionSensitive.filter { $0.item.store == store }.map { found in
            finding(
                found.item, file: found.file, exposed: false, index: context.inventory.root,
                path: Array(found.container.utf8) + [UInt8(ascii: "/")] + found.path, companion: found.container)
        }
        return own + companions
    }

    private static func finding(
        _ item: SensitiveItem, file entry: Entry, exposed: Bool, index: Int32, path: [UInt8]?, companion: String?
    ) -> RuleFinding {
        var message = what(item.kind.noun, length: item.length, place: item.place)
        // Repeats are one finding, counted: a log line of 2,260 tokens is one line to fix.
        if item.count > 1 { message += " (×\(grouped(item.count)))" }
        if let companion {
            message +=
                companion.hasPrefix("group.")
                ? " of the App Group container \(companion), which the app shares with its extensions"
                : " of the companion container \(companion)"
        }
        message += ", stored in clear: \(reach(entry, exposed: exposed))."
        if item.unprotected {
            message +=
                " The device backup records its data protection class as None: readable whenever the device is on, locked or not."
        }
        return RuleFinding(
            index: index, path: path, message: message, discriminator: "\(item.place) \(item.kind.rawValue)",
            bytes: entry.countedBytes,
            severity: entry.backup == .included || exposed || item.unprotected ? .error : nil)
    }

    /// 2260 → "2,260".
    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        return String(
            digits.enumerated().flatMap { index, digit in
                index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
            })
    }

    /// "Password (12 characters) in key pin": what was found and where, never the value.
    static func what(_ noun: String, length: Int, place: String) -> String {
        let characters = length > 0 ? " (\(Plural.count(length, "character")))" : ""
        return noun.prefix(1).uppercased() + noun.dropFirst() + characters + " in \(place)"
    }

    /// How far the secret travels.
    private static func reach(_ entry: Entry, exposed: Bool) -> String {
        if exposed { return "the app shares Documents with the Files app, where anyone holding the device can copy it" }
        // Caches and tmp: device-only, a warning. iOS never backs them up, but purging them is iOS's choice, not a
        // promise: the secret stays at rest for anyone with the device's file system.
        if entry.location == .caches || entry.location == .tmp, entry.backup != .included {
            let folder = entry.location == .caches ? "Library/Caches" : "tmp"
            return
                "device-only: \(folder) is never backed up, but iOS purges it only when it needs the space, so the secret stays on the "
                + "device for anyone with its file system"
        }
        switch entry.backup {
        case .included: return "the file is backed up, so the secret is copied into every device and iCloud backup"
        case .unknown:
            return "the file is in a backed-up place (whether it is excluded could not be told from this export)"
        case .excluded: return "the file is excluded from backup, but anyone with the device's file system can read it"
        case .excludedBySystem: return "not backed up, but anyone with the device's file system can read it"
        }
    }
}
