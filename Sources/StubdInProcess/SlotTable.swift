import StubdProtocol

/// Which front answers for each `StubURLProtocol<Slot>` class. Numbers are never reused: a
/// `URLSession` kept past its test (a singleton in the app under test) must not reach the next
/// test's front; its requests fail saying the fixture is gone. A class costs its metadata once
/// (a few hundred bytes), so even ten thousand tests in one process cost little. Holds fronts
/// weakly: a front no test holds answers nothing more.
enum SlotTable {
    private struct Table {
        var next = 0
        var fronts: [Int: Weak] = [:]
    }

    private struct Weak {
        weak var front: InProcessFront?
        let session: String
    }

    private static let table = Locked(Table())

    /// A new number for `front`'s `session`.
    static func take(for front: InProcessFront, session: String) -> Int {
        table.withLock { table in
            let n = table.next
            table.next += 1
            table.fronts[n] = Weak(front: front, session: session)
            return n
        }
    }

    /// Frees `number` (a front closing): its class answers nothing from now on.
    static func free(_ number: Int) {
        table.withLock { _ = $0.fronts.removeValue(forKey: number) }
    }

    /// The front holding `number` and the session its class answers in, if the front is still open.
    static func front(_ number: Int) -> (front: InProcessFront, session: String)? {
        table.withLock { table in
            guard let entry = table.fronts[number], let front = entry.front else { return nil }
            return (front, entry.session)
        }
    }
}
