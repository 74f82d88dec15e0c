import Foundation
import StubdCore
import StubdEngine
import StubdProtocol

/// Coverage in the Common Test Report Format (ctrf.io): a test per answer or quota state, named
/// `route: item`, an uncovered one failed (or skipped) with what to do as its message.
enum CTRFCoverage {
    /// The CTRF specification version the document follows.
    static let specVersion = "0.0.0"

    static func render(_ report: CoverageReport, uncoveredAs: CoverageOutput.Uncovered, now: Date = Date()) -> String {
        let missing = uncoveredAs == .failure ? "failed" : "skipped"
        let operationTests: [[String: Any]] = (report.operations ?? []).flatMap { operation in
            operation.documented.map { status -> [String: Any] in
                let answered = operation.answered.contains(status)
                var test: [String: Any] = ["name": "\(operation.operation): \(status)", "status": answered ? "passed" : missing,
                                           "duration": 0, "tags": ["operation"],
                                           "extra": ["operation": operation.operation, "status": status, "state": operation.state.rawValue] as [String: Any]]
                if !answered { test["message"] = CoverageReport.explain(status, of: operation) }
                return test
            }
        }
        let routeTests: [[String: Any]] = report.routes.flatMap { route in
            route.items.map { item -> [String: Any] in
                var test: [String: Any] = ["name": "\(route.route): \(item.title)", "status": item.isCovered ? "passed" : missing,
                                           "duration": 0, "filePath": route.source, "tags": [item.kind.rawValue],
                                           "extra": ["hits": item.hits, "route": route.signature, "item": item.id] as [String: Any]]
                if !item.isCovered { test["message"] = CoverageReport.explain(item, on: route) }
                return test
            }
        }
        let scenarioTests: [[String: Any]] = (report.scenarios ?? []).flatMap { scenario in
            scenario.items.map { item -> [String: Any] in
                var test: [String: Any] = ["name": "\(scenario.label): \(item.title)", "status": item.isCovered ? "passed" : missing,
                                           "duration": 0, "tags": [item.kind.rawValue, "scenario"],
                                           "extra": ["hits": item.hits, "scenario": scenario.scenario, "item": item.id] as [String: Any]]
                if !item.isCovered { test["message"] = CoverageReport.explain(item, of: scenario) }
                return test
            }
        }
        let tests = routeTests + scenarioTests + operationTests
        let count = { (status: String) in tests.filter { $0["status"] as? String == status }.count }
        let millis = Int(now.timeIntervalSince1970 * 1000)
        let document: [String: Any] = [
            "reportFormat": "CTRF",
            "specVersion": specVersion,
            "generatedBy": "stubd coverage",
            "results": [
                "tool": ["name": "stubd", "version": StubEngine.version],
                "summary": ["tests": tests.count, "passed": count("passed"), "failed": count("failed"),
                            "skipped": count("skipped"), "pending": 0, "other": 0, "start": millis, "stop": millis,
                            "extra": ["percent": report.summary.percent] as [String: Any]] as [String: Any],
                "tests": tests,
            ] as [String: Any],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
