import Foundation

/// Returns at once when at least `margin` is left of the wall clock's current minute; otherwise
/// sleeps into the next minute. A quota of `N/minute` counts calendar minutes (its window empties
/// at :00), so a test that fills one on the real clock and then expects a 429 must make the fill
/// and the refused call in the same minute: begun at :59.9, the fill counted in one minute and the
/// next call in a fresh one, answered instead of refused (seen once, ProxyModeTests under
/// AddressSanitizer). Call it just before the fill, with a margin longer than the calls take; a
/// manifest's virtual clock (`clock: { virtual: … }`) is the other way out.
public func waitOutMinuteBoundary(margin: Duration = .seconds(6)) async throws {
    let intoMinute = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
    let (seconds, attoseconds) = margin.components
    let marginSeconds = Double(seconds) + Double(attoseconds) / 1e18
    // Every time zone's offset is whole minutes, so :00 is a window's start in a quota's own zone too.
    if 60 - intoMinute < marginSeconds { try await Task.sleep(for: .seconds(60.2 - intoMinute)) }
}
