import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One JSON request of the app's REST calls (stations, the shop) and its answer as a value or the
/// `WeatherError` the app shows: the plumbing `StationService` and `StationShop` share.
enum JSONCall {
    static func send<Answer: Decodable & Sendable>(_ method: String, _ url: URL, body: (any Encodable & Sendable)? = nil,
                                                   session: URLSession,
                                                   completion: @escaping @Sendable (Result<Answer, WeatherError>) -> Void) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONEncoder().encode(body)
        }
        session.dataTask(with: request) { data, response, error in
            if let error { return completion(.failure(.transport((error as? URLError)?.code ?? .unknown))) }
            guard let http = response as? HTTPURLResponse else { return completion(.failure(.transport(.badServerResponse))) }
            switch http.statusCode {
            case 200..<300:
                do { completion(.success(try JSONDecoder().decode(Answer.self, from: data ?? Data()))) }
                catch { completion(.failure(.decoding(String(describing: error)))) }
            case 404: completion(.failure(.notFound))
            default: completion(.failure(.http(status: http.statusCode)))
            }
        }.resume()
    }
}
