import ArgumentParser
import Foundation
import Stubd

/// `stubd ca`: the local certificate authority that HTTPS and proxy mode issue certificates from.
struct CA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "The local certificate authority HTTPS answers are signed by (made on first use).",
        subcommands: [Path.self, Export.self, Renew.self, Trust.self])

    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the CA certificate's path (for curl --cacert, REQUESTS_CA_BUNDLE, SSL_CERT_FILE).")
        @OptionGroup var ca: CAOption

        func run() throws {
            print(try CA.load(ca).certificateURL.path)
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the CA certificate as PEM.")
        @OptionGroup var ca: CAOption

        func run() throws {
            let authority = try CA.load(ca)
            print(try CA.exitingOnFailure("stubd ca export") { () throws(TLSSetupError) in try authority.certificatePEM }, terminator: "")
        }
    }

    struct Renew: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new CA key and certificate in place of the current ones.",
            discussion: "Clients must trust the new certificate; a running stubd keeps the old one until it restarts.")
        @OptionGroup var ca: CAOption

        func run() throws {
            let authority = try CA.exitingOnFailure("stubd ca renew") { () throws(TLSSetupError) in try CertificateAuthority.renew(in: ca.directory) }
            print(authority.certificateURL.path)
        }
    }

    struct Trust: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install the CA certificate into an iOS simulator (macOS only).",
            discussion: "Runs `xcrun simctl keychain DEVICE add-root-cert <ca.pem>`.")
        @OptionGroup var ca: CAOption

        @Option(name: .long, help: ArgumentHelp("The simulator: a UDID, or `booted`.", valueName: "device"))
        var simulator: String

        func run() throws {
            let authority = try CA.load(ca)
            #if os(macOS)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
            process.arguments = ["simctl", "keychain", simulator, "add-root-cert", authority.certificateURL.path]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                printError("stubd ca trust: xcrun simctl keychain \(simulator) add-root-cert failed (exit \(process.terminationStatus)); is a simulator booted (`xcrun simctl list devices booted`)?")
                throw ExitCode(1)
            }
            print("trusted \(authority.certificateURL.path) in simulator \(simulator)")
            #else
            printError("stubd ca trust: simulators exist on macOS only. Here, give clients \(authority.certificateURL.path) (curl --cacert, REQUESTS_CA_BUNDLE, SSL_CERT_FILE) or add it to the system's trust store")
            throw ExitCode(1)
            #endif
        }
    }

    /// The CA in `option`'s folder, made there if it has none; a failure is printed and exits 1.
    static func load(_ option: CAOption) throws -> CertificateAuthority {
        try exitingOnFailure("stubd ca") { () throws(TLSSetupError) in try CertificateAuthority.loadOrCreate(in: option.directory) }
    }

    /// What `body` returns; when it fails, its error printed after `command` and exit 1, as every
    /// `stubd ca` subcommand fails.
    static func exitingOnFailure<T>(_ command: String, _ body: () throws(TLSSetupError) -> T) throws -> T {
        do { return try body() } catch {
            printError("\(command): \(error.description)")
            throw ExitCode(1)
        }
    }
}
