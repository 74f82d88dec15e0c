package import Foundation
import StubdProtocol

/// What a session's streams carry, by route key: the WebSockets open now (so a test can push to
/// them), what the app sent on them, and how many messages or events the server sent, which a test
/// can wait for (`GET /__stubd/streams/wait`). Bounded: at most `capacity` kept messages a route,
/// each cut to `maxKeptBytes`.
package final class StreamTraffic: Sendable {
    /// What a count counts.
    package enum Measure: String, Sendable, CaseIterable {
        /// Sockets (or event streams) of the route open now.
        case open
        /// Messages or events the server sent.
        case sent
        /// Messages the app sent on a WebSocket.
        case received
    }

    /// One message the app sent.
    package struct Message: Sendable {
        package let index: Int
        package let time: Date
        package let payload: WebSocketPayload
        package let truncated: Bool
        /// What keeping it is charged to the session's storage (`SessionStorage`).
        let cost: Int
    }

    package struct Route: Sendable {
        package var open: [ObjectIdentifier: any WebSocketPeer] = [:]
        /// WebSockets matched (their hit counted) whose connection is not made yet.
        package var connecting = 0
        /// Pushes for those, each with how many of them have still to take it.
        var held: [(payload: WebSocketPayload, left: Int)] = []
        /// Event streams open now (they take no push).
        package var openStreams = 0
        package var received: [Message] = []
        package var receivedTotal = 0
        package var sent = 0
        /// What the server sent last, described for a failure message (`"tick"`, `event: score {"a":1}`).
        package var recentSent: [String] = []
        /// Coverage: script reply index → times a client message took it.
        package var replies: [Int: Int] = [:]
        /// Coverage: the most events one stream of the route sent, and how many streams sent all theirs.
        package var furthestEvent = 0
        package var streamsEnded = 0

        package func count(_ measure: Measure) -> Int {
            switch measure {
            case .open: open.count + openStreams
            case .sent: sent
            case .received: receivedTotal
            }
        }
    }

    private struct Waiter {
        let id: Int
        let route: String
        let measure: Measure
        let count: Int
        let fire: @Sendable () -> Void
    }

    private struct State {
        var routes: [String: Route] = [:]
        var waiters: [Waiter] = []
        var nextID = 1
    }

    /// Bytes of a message kept for reading back; the rest is dropped and the message marked `truncated`.
    package static let maxKeptBytes = 64 * 1024
    /// Sent messages described for failure messages, per route.
    static let recentKept = 5
    /// A kept message's cost beyond its payload (the message, its place in the list).
    static let messageOverhead = 64
    private let state = Locked(State())
    let capacity: Int
    /// Where what the app sent is charged: 1,000 sessions each keeping a route's 1,000 × 64 KiB
    /// would be 64 GB.
    private let storage: SessionStorageAccount

    init(capacity: Int, storage: SessionStorageAccount = .unbounded()) {
        self.capacity = max(1, capacity)
        self.storage = storage
    }

    /// The route's traffic so far (empty when nothing happened on it).
    package func route(_ key: String) -> Route { state.withLock { $0.routes[key] ?? Route() } }

    // MARK: What the transport reports

    /// A WebSocket request matched: counted before its hit is, so a test that saw the hit and
    /// pushes at once reaches it (the push is held for it until its connection is made, `opened`).
    package func connecting(route key: String) {
        change(key) { $0.connecting += 1 }
    }

    /// A matched WebSocket that will not open (its handshake or its quota refused): no push is held for it.
    package func abandoned(route key: String) {
        change(key) { route in
            route.connecting = max(0, route.connecting - 1)
            route.held = route.held.compactMap { $0.left > 1 ? ($0.payload, $0.left - 1) : nil }
        }
    }

    /// The socket is open to pushes; returns the pushes held for it since it matched, to send first.
    package func opened(_ peer: any WebSocketPeer, route key: String) -> [WebSocketPayload] {
        var early: [WebSocketPayload] = []
        change(key) { route in
            route.open[ObjectIdentifier(peer)] = peer
            guard route.connecting > 0 else { return }
            route.connecting -= 1
            early = route.held.map(\.payload)
            route.held = route.held.compactMap { $0.left > 1 ? ($0.payload, $0.left - 1) : nil }
        }
        return early
    }

    /// Sends `payload` to every open socket of the route and holds it for those connecting; how many that is.
    package func push(_ payload: WebSocketPayload, route key: String) -> Int {
        let (peers, connecting): ([any WebSocketPeer], Int) = state.withLock { state in
            guard var route = state.routes[key] else { return ([], 0) }
            if route.connecting > 0 { route.held.append((payload, route.connecting)) }
            state.routes[key] = route
            return (Array(route.open.values), route.connecting)
        }
        for peer in peers { peer.push(payload) }
        return peers.count + connecting
    }

    package func closed(_ peer: any WebSocketPeer, route key: String) {
        change(key) { $0.open[ObjectIdentifier(peer)] = nil }
    }

    package func streamOpened(route key: String) { change(key) { $0.openStreams += 1 } }
    package func streamClosed(route key: String) { change(key) { $0.openStreams = max(0, $0.openStreams - 1) } }

    /// The app sent `payload` at `time`.
    package func received(_ payload: WebSocketPayload, at time: Date, route key: String) {
        var kept = payload
        var truncated = false
        switch payload {
        case .text(let text) where text.utf8.count > StreamTraffic.maxKeptBytes:
            kept = .text(String(decoding: text.utf8.prefix(StreamTraffic.maxKeptBytes), as: UTF8.self))
            truncated = true
        case .binary(let bytes) where bytes.count > StreamTraffic.maxKeptBytes:
            kept = .binary(Array(bytes.prefix(StreamTraffic.maxKeptBytes)))
            truncated = true
        default:
            break
        }
        let capacity = self.capacity
        let cost = Self.messageOverhead + {
            switch kept {
            case .text(let text): text.utf8.count
            case .binary(let bytes): bytes.count
            }
        }()
        // Charged before the lock: a charge may evict other sessions, which takes their locks.
        var charged = true
        do { try storage.charge(cost) } catch { charged = false }
        var freed = 0
        change(key) { route in
            route.receivedTotal += 1
            let message = Message(index: route.receivedTotal, time: time, payload: kept, truncated: truncated, cost: cost)
            if !charged {
                // No room in the budget even after evicting others: this route's own oldest
                // messages make room, as its capacity does; with too few of them, it is not kept.
                guard route.received.reduce(0, { $0 + $1.cost }) >= cost else { return }
                var dropped = 0
                while freed < cost { freed += route.received[dropped].cost; dropped += 1 }
                route.received.removeFirst(dropped)
                freed -= cost
            }
            route.received.append(message)
            if route.received.count > capacity {
                let over = route.received.count - capacity
                freed += route.received[..<over].reduce(0) { $0 + $1.cost }
                route.received.removeFirst(over)
            }
        }
        storage.release(freed)
    }

    /// The server sent a message or an event, described as `description`.
    package func sent(_ description: @autoclosure () -> String, route key: String) {
        let text = description()
        change(key) { route in
            route.sent += 1
            route.recentSent.append(text.count > 120 ? String(text.prefix(119)) + "…" : text)
            if route.recentSent.count > StreamTraffic.recentKept { route.recentSent.removeFirst() }
        }
    }

    /// A client message took the script's `index`th reply (coverage).
    package func replied(_ index: Int, route key: String) { change(key) { $0.replies[index, default: 0] += 1 } }

    /// An event stream sent `count` events, `ended` when that was every one before its ending (coverage).
    package func streamReached(_ count: Int, ended: Bool, route key: String) {
        change(key) { route in
            route.furthestEvent = max(route.furthestEvent, count)
            if ended { route.streamsEnded += 1 }
        }
    }

    /// Every open socket of the route, for a push.
    package func peers(route key: String) -> [any WebSocketPeer] {
        state.withLock { Array(($0.routes[key]?.open ?? [:]).values) }
    }

    // MARK: Waiting

    /// Registers `fire` for when `route` reaches `count` of `measure`; nil when it has already (answer at once).
    package func wait(route key: String, measure: Measure, count: Int, fire: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            if (state.routes[key] ?? Route()).count(measure) >= count { return nil }
            let id = state.nextID
            state.nextID += 1
            state.waiters.append(Waiter(id: id, route: key, measure: measure, count: count, fire: fire))
            return id
        }
    }

    /// Drops a wait whose timeout came first; false when it fired already.
    @discardableResult
    package func cancelWait(_ id: Int) -> Bool {
        state.withLock { state in
            guard let at = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
            state.waiters.remove(at: at)
            return true
        }
    }

    /// The kept messages let go (the session was evicted or dropped), counts and sockets left as they are.
    func dropKept() {
        let freed: Int = state.withLock { state in
            var freed = 0
            for key in state.routes.keys {
                freed += state.routes[key]!.received.reduce(0) { $0 + $1.cost }
                state.routes[key]!.received = []
            }
            return freed
        }
        storage.release(freed)
    }

    /// Counts and kept messages back to nothing (a session reset); sockets open stay open, and pushable.
    /// A match still connecting is forgotten with the pushes held for it: one whose 101 never went out
    /// (its client gone, libmicrohttpd dropping it unsaid) would else hold each later push for ever,
    /// reset or not, and one that does open finds nothing held (`opened`).
    func reset() {
        var freed = 0
        let waiting: [Waiter] = state.withLock { state in
            for key in state.routes.keys {
                freed += state.routes[key]!.received.reduce(0) { $0 + $1.cost }
                let open = state.routes[key]!.open, streams = state.routes[key]!.openStreams
                state.routes[key] = Route(open: open, openStreams: streams)
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        storage.release(freed)
        for waiter in waiting { waiter.fire() }
    }

    /// Changes a route's traffic, then fires the waits that reached their count.
    private func change(_ key: String, _ body: (inout Route) -> Void) {
        let ready: [Waiter] = state.withLock { state in
            body(&state.routes[key, default: Route()])
            guard !state.waiters.isEmpty, let route = state.routes[key] else { return [] }
            var ready: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard waiter.route == key, route.count(waiter.measure) >= waiter.count else { return false }
                ready.append(waiter)
                return true
            }
            return ready
        }
        for waiter in ready { waiter.fire() }
    }
}
