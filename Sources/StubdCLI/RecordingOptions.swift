import ArgumentParser
import Foundation
import Logging
import Stubd
import StubdCore
import StubdEngine

/// What `stubd record` and `stubd serve --proxy` share: the target and how to reach it, and what
/// a recording keeps out of the folder.
struct RecordingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Replace this literal wherever it appears: a path segment becomes {NAME}, elsewhere <NAME> (repeatable), e.g. --secret key=abc123.", valueName: "NAME=VALUE"))
    var secret: [String] = []

    @Option(name: .long, help: ArgumentHelp("A request header recorded routes match on (repeatable; none by default).", valueName: "name"))
    var matchHeader: [String] = []

    @Option(name: .long, help: "new: write only requests the folder does not answer yet; all: write every request again.")
    var mode: StubsRecorder.Mode = .new

    @Option(name: .long, help: "Seconds to wait for the target; then 504. Once an answer streams (past --max-body): how long the target may send nothing.")
    var timeout: Double = 30

    @Option(name: .long, help: "Bodies larger than this many bytes are passed on but not written.")
    var maxBody: Int = 10 << 20

    @Option(name: .long, help: "No answer's body is passed on past this many bytes after decompression (256 MiB; a 1 MB gzip bomb decodes to 1 GiB): a 502 if the client has nothing yet, else the body is cut.")
    var maxDecoded: Int = ForwardingOptions.defaultMaxDecodedBytes

    @Option(name: .long, help: ArgumentHelp("A CA bundle (PEM) to trust for an HTTPS target with its own certificates.", valueName: "file"))
    var caFile: String?

    @Flag(name: .long, help: "Do not verify the target's certificate (a local HTTPS upstream).")
    var insecure = false

    @Option(name: .long, help: ArgumentHelp("Reach the API (and pass-through hosts) through this HTTP proxy. Without it stubd goes direct and ignores http_proxy, https_proxy and ALL_PROXY, which may name stubd itself.", valueName: "url"))
    var upstreamProxy: String?

    @Option(name: .long, help: ArgumentHelp("Write only answers with these statuses, classes or codes, e.g. 2xx,3xx or 2xx,404; the others are passed on but not written. Default: every status.", valueName: "statuses"))
    var only: String?

    /// `--only`, checked by `validate`.
    var statuses: RecordedStatuses { only.flatMap { try? RecordedStatuses(parsing: $0) } ?? .all }

    @Flag(name: .long, help: "Write JSON bodies indented with sorted keys, instead of the API's bytes as sent.")
    var prettyJson = false

    @Flag(name: .long, help: "Write even when CI=true (CI refuses by default: a pipeline should replay, not re-record).")
    var allowCi = false

    /// Checked by `validate`, so none is dropped here.
    var secrets: [NamedSecret] { secret.compactMap { try? NamedSecret(parsing: $0) } }

    /// `--secret` values as the log shows them: `<NAME>`.
    var logMasking: SecretMasker { SecretMasker(secrets.map { ($0.value, $0.placeholder) }) }

    func validate() throws {
        for item in secret {
            do { _ = try NamedSecret(parsing: item) } catch { throw ValidationError(error.description) }
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
        guard maxBody > 0 else { throw ValidationError("--max-body must be more than 0 bytes") }
        guard maxDecoded > 0 else { throw ValidationError("--max-decoded must be more than 0 bytes") }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) { throw ValidationError("--ca-file \(caFile) cannot be read") }
        if let upstreamProxy { _ = try Self.proxyURL(upstreamProxy) }
        if let only {
            do { _ = try RecordedStatuses(parsing: only) } catch { throw ValidationError(error.description) }
        }
    }

    /// `--upstream-proxy`, checked: an http:// URL with a host (libcurl and the tunnels speak plain HTTP to it).
    static func proxyURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http", url.host != nil, url.path.isEmpty || url.path == "/" else {
            throw ValidationError("--upstream-proxy '\(text)' is not a proxy URL like http://proxy.example.com:3128")
        }
        return url
    }

    /// How stubd reaches real hosts: the upstream proxy, and the pass-through's timeout.
    var upstream: UpstreamSettings {
        var settings = UpstreamSettings()
        settings.proxy = upstreamProxy.flatMap { try? Self.proxyURL($0) }
        settings.passThroughTimeoutSeconds = timeout
        return settings
    }

    /// The flags set away from their defaults, by name: `serve` refuses those it would ignore.
    var flagsGiven: [String] {
        var given: [String] = []
        if !secret.isEmpty { given.append("--secret") }
        if !matchHeader.isEmpty { given.append("--match-header") }
        if mode != .new { given.append("--mode") }
        if timeout != 30 { given.append("--timeout") }
        if maxBody != 10 << 20 { given.append("--max-body") }
        if maxDecoded != ForwardingOptions.defaultMaxDecodedBytes { given.append("--max-decoded") }
        if caFile != nil { given.append("--ca-file") }
        if insecure { given.append("--insecure") }
        if upstreamProxy != nil { given.append("--upstream-proxy") }
        if allowCi { given.append("--allow-ci") }
        if prettyJson { given.append("--pretty-json") }
        if only != nil { given.append("--only") }
        return given
    }

    static func target(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("the target '\(text)' is not a URL like https://api.example.com")
        }
        return url
    }

    /// The forwarding settings; a recorder for `stubs` when `record` is set (refusing in CI without --allow-ci).
    func forwarding(target: URL, scope: ForwardingOptions.Scope, record stubs: URL?, logger: Logger) throws -> ForwardingOptions {
        var options = ForwardingOptions(target: target, scope: scope)
        options.timeoutSeconds = timeout
        options.maxBodyBytes = maxBody
        options.maxDecodedBytes = maxDecoded
        options.caFile = caFile
        options.insecure = insecure
        options.notice = { message in logger.notice("\(message)") }
        if let stubs {
            if ProcessInfo.processInfo.environment["CI"] == "true", !allowCi {
                printError("stubd: refusing to record with CI=true: a pipeline should replay the Stubs folder, not rewrite it. Pass --allow-ci to record anyway.")
                throw ExitCode(1)
            }
            do {
                options.recorder = try StubsRecorder(root: stubs, rules: RecordingRules(secrets: secrets, matchHeaders: matchHeader,
                                                                                          targetOrigin: target.origin, prettyJSON: prettyJson,
                                                                                          statuses: statuses),
                                                     mode: mode)
            } catch {
                printError("stubd: cannot record into \(stubs.path): \(error)")
                throw ExitCode(1)
            }
        }
        return options
    }
}
