/// A body made while it is sent: libmicrohttpd asks for the next bytes whenever the socket can take
/// them, and the stream answers with some, a pause, or the end. `ResponseWriter` drives it; a
/// stream never sees the connection, only `StreamPause`, so a new kind of stream (server-sent
/// events, a throttle) is one conforming type and no change to the writer or its callers.
protocol ResponseStream: AnyObject, Sendable {
    /// Bytes libmicrohttpd asks for at most per read.
    var blockSize: Int { get }
    /// The next bytes from `position` (how many were sent before) into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer, at position: UInt64, pause: StreamPause) -> StreamRead
    /// The response is over or the client left (libmicrohttpd freed it): stop producing.
    func close()
}

extension ResponseStream {
    var blockSize: Int { 64 * 1024 }
    func close() {}
}

/// What a stream's read produced.
enum StreamRead {
    /// This many bytes were written into the buffer (at least 1).
    case bytes(Int)
    /// Nothing now: the stream paused the connection (`StreamPause`), and is read again when it resumes.
    case paused
    /// The body is complete.
    case end
    /// The body stops here and the connection closes: the client sees it cut short.
    case cut
}
