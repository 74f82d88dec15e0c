/// What libmicrohttpd keeps for us per request (its `con_cls` pointer), read as what it means.
///
/// Most requests need no state of ours (no body, no delay, no log line to finish later), so for
/// them the slot holds a marker instead of an object and the request allocates nothing of ours;
/// the markers are bit patterns no allocation can have. Only this type reads or writes the
/// pointer (`RequestSlotTests` check each case comes back as it went in).
enum RequestSlot {
    /// First call for the request: nothing stored yet.
    case empty
    /// The raw URI held `%00` (set by `DaemonCallbacks.rawURIInspector` before decoding): a 400.
    case nulInPath
    /// The head is read and the request needs no state of ours.
    case plain
    /// The request has a context: a body, a log line, something pending while suspended.
    case tracked(RequestContext)

    private static let nulInPathMarker = UInt(0x2)
    private static let plainMarker = UInt(0x1)

    init(_ raw: UnsafeMutableRawPointer?) {
        switch raw.map(UInt.init(bitPattern:)) {
        case nil: self = .empty
        case Self.plainMarker: self = .plain
        case Self.nulInPathMarker: self = .nulInPath
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
        case .tracked(let context): return Unmanaged.passRetained(context).toOpaque()
        }
    }

    /// Gives up what `raw` retained (libmicrohttpd's completion notice); markers hold nothing.
    static func release(_ raw: UnsafeMutableRawPointer?) {
        guard case .tracked = RequestSlot(raw), let raw else { return }
        Unmanaged<RequestContext>.fromOpaque(raw).release()
    }
}
