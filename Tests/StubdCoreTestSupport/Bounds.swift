import Foundation

/// A bound on time or memory for a test, stretched under a sanitizer (scripts/test sets
/// STUBD_SANITIZER): ThreadSanitizer makes every access slower and shadows all memory, and these
/// bounds are about behaviour (nothing held, nothing leaked), not about speed or size. Here, not in
/// StubdTestSupport, so a test moved off the socket (StubdCoreTests) keeps the same bound.
public func bound(_ seconds: Double) -> Double {
    ProcessInfo.processInfo.environment["STUBD_SANITIZER"] == nil ? seconds : seconds * 5
}
