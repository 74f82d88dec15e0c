/// What libmicrohttpd keeps for us per request (its `con_cls` pointer), read as what it means.
///
/// Most requests need no state of ours (no body, no delay, no log line to finish later), so for
/// them the slot holds a marker instead of an object and the request allocates nothing of ours;
/// the markers are bit patterns no allocation can have. Only this type encodes and decodes the
/// pointer (`RequestSlotTests` check each case comes back as it went in).
enum RequestSlot {
    /// First call for the request: nothing stored yet.
    case empty
    /// The raw URI's path held `%00` or a NUL byte (set by `DaemonCallbacks.rawURIInspector` before decoding): a 400.
    case nulInPath
    /// The raw URI's query held `%00` or a NUL byte: a 400 (see `rawURIInspector` for why not passed on).
    case nulInQuery
    /// The query has more parameters than a connection's memory holds (this many): a 414, and
    /// libmicrohttpd was kept from parsing them (see `rawURIInspector`).
    case tooManyParameters(Int, targetLength: Int)
    /// The head is read and the request needs no state of ours.
    case plain
    /// As `plain`, with the log on: only when the head arrived (`DispatchTime`'s uptime nanoseconds),
    /// for the line's latency. It was a `RequestContext` per request: an allocation, an atomic gate
    /// and a release at completion, ~550 of the handler's and completed callback's instructions.
    case plainLogged(since: UInt64)
    /// The request has a context: a body, a log line, something pending while suspended.
    case tracked(RequestContext)

    private static let nulInPathMarker = UInt(0x2)
    private static let plainMarker = UInt(0x1)
    private static let nulInQueryMarker = UInt(0x3)
    /// Odd, so never an object's address: the count sits in the 24 bits above the low four, the target's length above them.
    private static let tooManyParametersTag = UInt(0x5)
    /// Odd too: the nanoseconds sit above the low four bits (2^60 ns is 36 years of uptime).
    private static let plainLoggedTag = UInt(0x7)

    init(_ raw: UnsafeMutableRawPointer?) {
        switch raw.map(UInt.init(bitPattern:)) {
        case nil: self = .empty
        case Self.plainMarker: self = .plain
        case Self.nulInPathMarker: self = .nulInPath
        case Self.nulInQueryMarker: self = .nulInQuery
        case let tagged? where tagged & 0xF == Self.tooManyParametersTag:
            self = .tooManyParameters(Int((tagged >> 4) & 0xFFFFFF), targetLength: Int(tagged >> 28))
        case let tagged? where tagged & 0xF == Self.plainLoggedTag:
            self = .plainLogged(since: UInt64(tagged >> 4))
        case let address?:
            self = .tracked(Unmanaged<RequestContext>.fromOpaque(UnsafeMutableRawPointer(bitPattern: address)!).takeUnretainedValue())
        }
    }

    /// The pointer to store; a context is retained until `release(_:)` is given the same pointer.
    var raw: UnsafeMutableRawPointer? {
        switch self {
        case .empty: return nil
        case .plain: return UnsafeMutableRawPointer(bitPattern: Self.plainMarker)
        case .nulInPath: return UnsafeMutableRawPointer(bitPattern: Self.nulInPathMarker)
        case .nulInQuery: return UnsafeMutableRawPointer(bitPattern: Self.nulInQueryMarker)
        case let .tooManyParameters(count, length):
            return UnsafeMutableRawPointer(bitPattern: UInt(min(length, 1 << 24)) << 28 | UInt(min(count, 0xFFFFFF)) << 4 | Self.tooManyParametersTag)
        case .plainLogged(let since): return UnsafeMutableRawPointer(bitPattern: UInt(since & (UInt64.max >> 4)) << 4 | Self.plainLoggedTag)
        case .tracked(let context): return Unmanaged.passRetained(context).toOpaque()
        }
    }

    /// When a logged request without a context of its own arrived (see `plainLogged`); nil otherwise.
    var loggedSince: UInt64? {
        if case .plainLogged(let since) = self { return since }
        return nil
    }

    /// Gives up what `raw` retained (libmicrohttpd's completion notice); markers hold nothing.
    static func release(_ raw: UnsafeMutableRawPointer?) {
        guard case .tracked = RequestSlot(raw), let raw else { return }
        Unmanaged<RequestContext>.fromOpaque(raw).release()
    }
}
