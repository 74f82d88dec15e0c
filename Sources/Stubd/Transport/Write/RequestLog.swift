import Foundation

/// The request log: where a request's line is finished (its status, what happened to it: a fault,
/// a throttle, a forward; how long it took) and handed to the sink (`serve`'s log writer, a test's
/// closure). `ResponseWriter` writes it as the last thing done for a request, once its answer is
/// queued, dropped or handed off; an answer that ends long after the writer let go of it (a
/// forwarded download, a pass-through tunnel) has its line written when it ends.
struct RequestLog: Sendable {
    let sink: (@Sendable (RequestLogLine) -> Void)?

    /// Off (no sink): nothing about a request is kept for a line.
    var isOn: Bool { sink != nil }

    /// `breaks the spec: query.units: … (and 1 more)`, for the log line of a request `serve --spec` reported.
    static func contractNote(_ problems: [String]) -> String {
        "breaks the spec: \(problems[0])" + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "")
    }

    /// `started` nil leaves the line's time at 0 (a request libmicrohttpd never handed over).
    func write(_ line: RequestLogLine, status: Int, note: String? = nil, started: UInt64?) {
        guard let sink else { return }
        var line = line
        line.status = status
        if let note { line.note = note }
        if let started { line.latencyMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - started) / 1000) }
        sink(line)
    }
}
