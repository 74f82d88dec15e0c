public import Foundation
import StubdProtocol

/// Reads a `text/event-stream` as it arrives (a URLSession delegate's `didReceive data`, a
/// `bytes(for:)` loop on Apple platforms): feed it bytes, take the events they complete.
///
/// ```swift
/// var reader = ServerSentEventReader()
/// for event in reader.feed(chunk) where event.type == "message" { print(event.data) }
/// ```
///
/// It reads the WHATWG format as a browser's `EventSource` does: `data:` lines joined by line
/// breaks, `event:` the type (`message` when absent), `id:` kept as `lastEventID` (send it back as
/// `Last-Event-ID` to resume), comments and unknown fields ignored, lines ending in LF, CRLF or CR.
public struct ServerSentEventReader: Sendable {
    /// One dispatched event.
    public struct Event: Sendable, Equatable {
        /// `event:`, or `message` when the event had none.
        public var type: String
        /// The `data:` lines, joined by `\n`.
        public var data: String
        /// The last `id:` seen so far in the stream, as `EventSource.lastEventId` shows it.
        public var id: String?

        /// An event as the reader dispatches it.
        public init(type: String = "message", data: String, id: String? = nil) {
            self.type = type
            self.data = data
            self.id = id
        }
    }

    /// The stream's last `id:`, for `Last-Event-ID` when reconnecting.
    public private(set) var lastEventID: String?
    /// The stream's last `retry:`, in milliseconds.
    public private(set) var retryMilliseconds: Int?
    private var pending: [UInt8] = []
    private var sawCR = false
    private var type = ""
    private var data: [String] = []
    private var hasData = false

    /// A reader at the start of a stream.
    public init() {}

    /// Takes the next bytes of the stream; returns the events they complete, in order.
    public mutating func feed(_ bytes: Data) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if sawCR {
                sawCR = false
                if byte == 0x0A { continue } // the LF of a CRLF
            }
            if byte == 0x0A || byte == 0x0D {
                sawCR = byte == 0x0D
                if let event = line(String(decoding: pending, as: UTF8.self)) { events.append(event) }
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        return events
    }

    private mutating func line(_ text: String) -> Event? {
        if text.isEmpty {
            defer { type = ""; data = []; hasData = false }
            guard hasData else { return nil }
            return Event(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"), id: lastEventID)
        }
        if text.hasPrefix(":") { return nil }
        let field = EventStreamField(line: Substring(text))
        let value = field.value
        switch field.name {
        case "event": type = String(value)
        case "data": data.append(String(value)); hasData = true
        case "id": if !value.contains("\0") { lastEventID = String(value) }
        case "retry": if let ms = Int(value), value.allSatisfy(\.isNumber) { retryMilliseconds = ms }
        default: break
        }
        return nil
    }
}
