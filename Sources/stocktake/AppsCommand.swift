import ArgumentParser
import Foundation
import StocktakeBackup

struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract:
            "List the apps of a device backup: bundle id, files, bytes, and their App Group and extension domains.")

    @Argument(help: "A device backup folder (Finder, iTunes or idevicebackup2: Manifest.db, Manifest.plist, …).")
    var backup: String

    @Option(help: "text or json.")
    var format: ListingFormat = .text

    enum ListingFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func run() throws {
        let listing = BackupAppsListing(backup: try attempt { try DeviceBackup.read(backup) })
        switch format {
        case .text: print(listing.text, terminator: "")
        case .json: FileHandle.standardOutput.write(Data(try listing.json()))
        }
    }
}
