import Foundation
import Stubd
import StubdCore
import StubdEngine

extension StubServer.Options {
    /// Server options that forward to `target` (every request, or those of `scope`), recording into
    /// `folder` with `rules` and `mode` when a folder is given; `adjust` sets the forwarding's other
    /// options. The forwarding and recording suites all start their recorder here.
    static func forwarding(to target: URL, scope: ForwardingOptions.Scope = .everything, recordingInto folder: URL? = nil,
                           rules: RecordingRules = RecordingRules(), mode: StubsRecorder.Mode = .new,
                           _ adjust: (inout ForwardingOptions) -> Void = { _ in }) throws -> StubServer.Options {
        var options = StubServer.Options()
        var forwarding = ForwardingOptions(target: target, scope: scope)
        adjust(&forwarding)
        if let folder { forwarding.recorder = try StubsRecorder(root: folder, rules: rules, mode: mode) }
        options.forwarding = forwarding
        return options
    }
}
