import ArgumentParser
import Foundation

/// `--stubs`, shared by the commands that read a Stubs folder; `STUBD_STUBS` stands in for it.
struct StubsOption: ParsableArguments {
    @Option(name: .long, help: "The stubs directory (env STUBD_STUBS).")
    var stubs: String = ProcessInfo.processInfo.environment["STUBD_STUBS"] ?? "./Stubs"

    var url: URL { URL(fileURLWithPath: stubs) }
}
