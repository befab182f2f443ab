import ArgumentParser
import Foundation
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Write a commented default stocktake.yml.")

    @Argument(help: "Where to write it.")
    var path = "stocktake.yml"

    @Flag(help: "Replace an existing file.")
    var force = false

    func run() throws {
        guard force || !FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(.couldNotRun, "\(path) exists; use --force to replace it")
        }
        try attempt {
            AtomicFile.removeLeftovers(of: path)
            try AtomicFile.write(Array(DefaultConfiguration.text.utf8), to: path)
        }
        let what = "every rule with its defaults (changes nothing until edited); edit and commit it."
        print(Terminal.visible("Wrote \(path): \(what)"))
    }
}
