import ArgumentParser
import Foundation
import StocktakeScan

struct SimulatorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulators",
        abstract:
            "List the simulator devices (UDID, name, runtime, state) and each device's apps with their data container's size.",
        discussion: """
            Reads the device set only (device.plist and each container's metadata plist); never boots, \
            changes or writes to a device. Audit one app with `stocktake audit --simulator DEVICE --app ID`.
            """)

    @Option(
        name: .customLong("device-set"),
        help:
            "A CoreSimulator device set, as `xcrun simctl --set` takes (default: ~/Library/Developer/CoreSimulator/Devices)."
    )
    var deviceSet: String?

    @Option(name: .long, help: "text or json.")
    var format: AppsCommand.ListingFormat = .text

    func run() throws {
        let set: DeviceSet
        do {
            set = try DeviceSet.open(deviceSet)
        } catch {
            throw CommandFailure(.couldNotRun, lines: error.lines)
        }
        let listing = SimulatorListing(deviceSet: set)
        switch format {
        case .text: listing.text { FileHandle.standardOutput.write(Data($0.utf8)) }
        case .json: try listing.json { FileHandle.standardOutput.write(Data($0)) }
        }
    }
}
