public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A live "current conditions" widget that refreshes itself every 20 ms.
///
/// **Deliberately buggy**: the example of what `HitGenerations` catches. Its timer is started in `init`
/// and never cancelled, and the timer's handler holds the service strongly, so every instance polls
/// forever, even after the screen that made it is gone. Each time the app shows the widget again one
/// more poller joins, and each generation of a test scenario makes more calls than the one before:
/// the bug that burns a real API's daily quota. Do not copy it; cancel timers in `deinit` or `stop()`,
/// and capture `self` weakly.
public final class PollingWeatherService: Sendable {
    /// The service each poll goes through.
    public let service: WeatherService
    // Configured in `init` and never touched again, so sharing the reference is safe.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// Starts polling `state`/`city` at once, then every `interval`; `update` gets each answer.
    public init(baseURL: URL, apiKey: String, state: String, city: String,
                interval: DispatchTimeInterval = .milliseconds(20), session: URLSession = .shared,
                update: @escaping @Sendable (Result<Conditions, WeatherError>) -> Void = { _ in }) {
        service = WeatherService(baseURL: baseURL, apiKey: apiKey, session: session)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "PollingWeatherService"))
        timer.schedule(deadline: .now(), repeating: interval)
        // The leak: a strong `self` in the handler of a timer that is never cancelled.
        timer.setEventHandler {
            self.service.fetchConditions(state: state, city: city,
                                         success: { update(.success($0)) }, failure: { update(.failure($0)) })
        }
        timer.resume()
    }
}
