import Foundation
import Logging
import Stubd

/// swift-log's handler for stubd's own messages (reloads, notices, warnings): each becomes a
/// record for the `LogWriter`, which formats and writes it off the calling thread, in order with
/// the request lines.
struct StubdLogHandler: LogHandler {
    let writer: LogWriter
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 })
        writer.enqueue(.message(event.level, event.message.description, merged, time: Date()))
    }
}

func makeLogger(writer: LogWriter, level: Logger.Level) -> Logger {
    var logger = Logger(label: "stubd") { _ in StubdLogHandler(writer: writer, logLevel: level) }
    logger.logLevel = level
    return logger
}
