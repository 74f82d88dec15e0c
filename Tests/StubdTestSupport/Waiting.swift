import Foundation

/// Waits until `condition` holds, checking every 20 ms, for at most `seconds` (for file-system
/// events, which have no completion to wait on).
public func eventually(within seconds: Double = 3, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

