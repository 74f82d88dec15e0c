import Foundation
import Logging
import Stubd

/// One request, one line: `GET /api/KEY/x.json 200 route=… 0.31ms quota=…`
enum RequestLogFormat {
    static func message(_ line: RequestLogLine) -> Logger.Message {
        var text = "\(line.method) \(line.path) \(line.status == 0 ? "-" : String(line.status))"
        if let route = line.route { text += " route=\(route)" } else if !line.isAdmin { text += " unmatched" }
        if !line.session.isEmpty { text += " session=\(line.session)" }
        text += String(format: " %.2fms", Double(line.latencyMicroseconds) / 1000)
        if let quota = line.quota { text += " quota=\"\(quota)\"" }
        if let note = line.note { text += " \(note)" }
        return "\(text)"
    }

    static func metadata(_ line: RequestLogLine) -> Logger.Metadata {
        var m: Logger.Metadata = ["method": "\(line.method)", "path": "\(line.path)", "status": "\(line.status)",
                                  "latency_ms": "\(Double(line.latencyMicroseconds) / 1000)"]
        if let route = line.route { m["route"] = "\(route)" }
        if !line.session.isEmpty { m["session"] = "\(line.session)" }
        if let quota = line.quota { m["quota"] = "\(quota)" }
        if let note = line.note { m["note"] = "\(note)" }
        return m
    }
}

/// Log lines on standard output: text for people, JSON for machines.
struct StubdLogHandler: LogHandler {
    let json: Bool
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?,
             source: String, file: String, function: String, line: UInt) {
        let time = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!,
                                               formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let text: String
        if json {
            var object: [String: String] = ["time": time, "level": level.rawValue, "message": message.description]
            for (k, v) in self.metadata.merging(extra ?? [:], uniquingKeysWith: { $1 }) { object[k] = v.description }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = "\(time) \(level.rawValue) \(message)"
        }
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

func makeLogger(format: Serve.LogFormat, level: Logger.Level) -> Logger {
    var logger = Logger(label: "stubd") { _ in StubdLogHandler(json: format == .json, logLevel: level) }
    logger.logLevel = level
    return logger
}
