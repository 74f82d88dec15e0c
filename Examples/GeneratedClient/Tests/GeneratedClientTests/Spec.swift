import Foundation

/// The specs the generated clients were made from: the same files stubd serves and imports.
enum Spec {
    /// Examples/GeneratedClient, two folders up from this file.
    static let package: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let weather = package.appendingPathComponent("Sources/WeatherAPI/openapi.yaml").resolvingSymlinksInPath()
    static let twilioMessages = package.appendingPathComponent("Sources/TwilioMessagesAPI/openapi.yaml")
}
