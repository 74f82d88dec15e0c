import ArgumentParser
import Foundation
import Logging
import Stubd
import StubdCore
import StubdEngine

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Forward every request to a real API and write what it answers into a Stubs folder.",
        // One line per paragraph: argument-parser wraps each line to the terminal, so a line break
        // inside a paragraph would end its lines short. The names come from the list the recorder uses.
        discussion: [
            "Point the app (or its tests) at stubd instead of the API, use it, and stop with Ctrl-C. Afterwards `stubd serve` answers the same requests offline.",
            "Secrets are replaced, not written: the values of the request headers \(SecretNames.listed(SecretNames.headerNames)), the value of each Set-Cookie, and the query and form values of \(SecretNames.listed(SecretNames.parameterNames)) (any case, with or without '_' or '-': accessToken is access_token). --secret NAME=VALUE replaces more (a path segment holding VALUE becomes {NAME}).",
            "Every answer is recorded, errors too (a 429 or a 503 is worth replaying); --only 2xx,3xx keeps only those statuses.",
        ].joined(separator: "\n\n"))

    @Option(name: .long, help: "The real API, e.g. https://api.openweathermap.org.")
    var target: String

    @OptionGroup var stubs: StubsOption
    @OptionGroup var recording: RecordingOptions

    @Option(name: .long, help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "Port; 0 picks a free one.")
    var port: UInt16 = 8080

    func run() throws {
        let writer = LogWriter(json: false, masking: recording.logMasking)
        let logger = makeLogger(writer: writer, level: .info)
        var options = StubServer.Options()
        options.maskedSecrets = recording.secrets
        options.upstream = recording.upstream
        options.forwarding = try recording.forwarding(target: try RecordingOptions.target(target), scope: .everything,
                                                      record: stubs.url, logger: logger)
        let server: StubServer
        let shutdown = ShutdownSignals()
        do { server = try StubServer(stubs: stubs.url, host: host, port: port, options: options) } catch {
            printError("stubd: cannot record: \(error)")
            throw ExitCode(1)
        }
        print("stubd recording on \(server.baseURL.absoluteString): forwarding to \(target), writing into \(stubs.stubs) (mode \(recording.mode.rawValue))")
        fflush(nil)
        shutdown.wait()
        server.stopSynchronously()
        logger.notice("stopped")
        writer.flush(within: 0.3)
        fflush(nil)
    }
}
