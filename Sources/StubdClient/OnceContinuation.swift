import StubdProtocol

/// Resumes a continuation exactly once, whichever of the callback and the deadline comes first.
final class OnceContinuation<T: Sendable>: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<T, any Error>?, done: Bool)>((nil, false))

    func install(_ c: CheckedContinuation<T, any Error>) { state.withLock { $0.continuation = c } }

    func finish(_ result: Result<T, any Error>) {
        let c: CheckedContinuation<T, any Error>? = state.withLock { s in
            guard !s.done else { return nil }
            s.done = true
            defer { s.continuation = nil }
            return s.continuation
        }
        c?.resume(with: result)
    }
}
