import Foundation
import StubdProtocol

/// Waits for a completion-block API to call back, with a deadline, from async test code.
///
/// ```swift
/// let temperature = try await awaitCompletion { done in
///     service.fetch(zip: "94107") { done(.success($0)) } failure: { done(.failure($0)) }
/// }
/// ```
/// Unlike Swift Testing's `confirmation`, it waits for a call that comes later; unlike a sleep, it
/// returns the moment the block is called.
public func awaitCompletion<T: Sendable>(timeout: Duration = .seconds(2),
                                         _ start: (@escaping @Sendable (T) -> Void) -> Void) async throws -> T {
    let once = OnceContinuation<T>()
    return try await withCheckedThrowingContinuation { continuation in
        once.install(continuation)
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
            once.finish(.failure(CompletionTimeout(timeout: timeout)))
        }
        start { value in once.finish(.success(value)) }
    }
}
