/// Addresses several rules cite in their `source`, each written once. Both File System Programming Guide
/// addresses appear because rules quote them as published (the `ios` path and the archive's).
enum Guidance {
    static let dataStorage = "https://developer.apple.com/icloud/documentation/data-storage/index.html"
    static let qa1719 = "https://developer.apple.com/library/ios/qa/qa1719/_index.html"
    static let fileSystemGuide =
        "https://developer.apple.com/library/ios/documentation/FileManagement/Conceptual/FileSystemProgrammingGuide/FileSystemOverview/FileSystemOverview.html"
    static let fileSystemGuideArchive =
        "https://developer.apple.com/library/archive/documentation/FileManagement/Conceptual/FileSystemProgrammingGuide/FileSystemOverview/FileSystemOverview.html"
    static let storageTechTalk = "https://developer-rno.apple.com/videos/play/tech-talks/204"
    static let mastg0302 = "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0302/"
    static let maswe0006 = "https://mas.owasp.org/MASWE/MASVS-STORAGE/MASWE-0006/"
}
