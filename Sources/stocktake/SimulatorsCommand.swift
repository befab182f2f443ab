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
        help:
            "A CoreSimulator device set, as `xcrun simctl --set` takes (default: ~/Library/Developer/CoreSimulator/Devices)."
    )
    var deviceSet: String?

    @Option(help: "text or json.")
    var format: AppsCommand.ListingFormat = .text

    func run() throws {
        let set: DeviceSet
        do { set = try DeviceSet.open(deviceSet) } catch {
            throw CommandFailure(.couldNotRun, lines: error.lines + Self.hint(deviceSet: deviceSet))
        }
        let listing = SimulatorListing(deviceSet: set)
        switch format {
        case .text: listing.text { FileHandle.standardOutput.write(Data($0.utf8)) }
        case .json: try listing.json { FileHandle.standardOutput.write(Data($0)) }
        }
    }

    /// Off macOS there is no Xcode and so no default device set: say how to name one copied from a Mac.
    static func hint(deviceSet: String?) -> [String] {
        #if os(Linux)
            if deviceSet == nil {
                return [
                    "simulators live on a Mac: copy a device set (~/Library/Developer/CoreSimulator/Devices) here and give it with --device-set PATH"
                ]
            }
        #endif
        return []
    }
}
