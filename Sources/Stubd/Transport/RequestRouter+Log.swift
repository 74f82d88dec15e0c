import Foundation

extension RequestRouter {
    /// The one place a request's log line is written: its status, what happened to it (a fault, a
    /// throttle, a forward), and how long it took since `started` (nil leaves it at 0).
    /// `breaks the spec: query.units: … (and 1 more)`, for the log line of a request `serve --spec` reported.
    static func contractNote(_ problems: [String]) -> String {
        "breaks the spec: \(problems[0])" + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "")
    }

    func writeLog(_ line: RequestLogLine, status: Int, note: String? = nil, started: UInt64?) {
        guard let log else { return }
        var line = line
        line.status = status
        if let note { line.note = note }
        if let started { line.latencyMicroseconds = Int((DispatchTime.now().uptimeNanoseconds - started) / 1000) }
        log(line)
    }
}
