import StubdProtocol

/// Coverage as JUnit XML, which CI systems show without a plugin: a suite per route, a testcase per
/// answer or quota state, an uncovered one failing (or skipped) with what to do in its message.
enum JUnitCoverage {
    static func render(_ report: CoverageReport, uncoveredAs: CoverageOutput.Uncovered) -> String {
        let scenarios = report.scenarios ?? []
        let items = report.routes.flatMap(\.items) + scenarios.flatMap(\.items)
        let operations = report.operations ?? []
        let statuses = operations.reduce(0) { $0 + $1.documented.count }
        let missing = items.filter { !$0.isCovered }.count + operations.reduce(0) { $0 + $1.unanswered.count }
        let (failures, skipped) = uncoveredAs == .failure ? (missing, 0) : (0, missing)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="stubd coverage" tests="\#(items.count + statuses)" failures="\#(failures)" errors="0" skipped="\#(skipped)" time="0">"# + "\n"
        for (index, route) in report.routes.enumerated() {
            xml += suite(name: route.signature, id: index, uncoveredAs: uncoveredAs, cases: route.items.map { item in
                Case(name: item.title, classname: route.route, covered: item.isCovered,
                     message: CoverageReport.explain(item, on: route), hint: item.hint)
            })
        }
        // A suite per scenario, a testcase per state and transition.
        for (offset, scenario) in scenarios.enumerated() {
            xml += suite(name: scenario.label, id: report.routes.count + offset, uncoveredAs: uncoveredAs, cases: scenario.items.map { item in
                Case(name: item.title, classname: scenario.label, covered: item.isCovered,
                     message: CoverageReport.explain(item, of: scenario), hint: item.hint)
            })
        }
        // With a spec: a suite per operation, a testcase per documented status.
        for (offset, operation) in operations.enumerated() {
            xml += suite(name: operation.operation, id: report.routes.count + scenarios.count + offset, uncoveredAs: uncoveredAs, cases: operation.documented.map { status in
                Case(name: String(status), classname: "spec " + operation.operation, covered: operation.answered.contains(status),
                     message: CoverageReport.explain(status, of: operation), hint: operation.hint(for: status))
            })
        }
        return xml + "</testsuites>"
    }

    /// One testcase: a route's item or a spec operation's documented status.
    struct Case {
        let name: String
        let classname: String
        let covered: Bool
        /// What was never seen and how to reach it, for an uncovered case.
        let message: String
        let hint: String
    }

    /// A `<testsuite>` whose counts agree with its testcases, as schema-checking CI readers demand.
    private static func suite(name: String, id: Int, uncoveredAs: CoverageOutput.Uncovered, cases: [Case]) -> String {
        let missing = cases.filter { !$0.covered }.count
        let (f, s) = uncoveredAs == .failure ? (missing, 0) : (0, missing)
        var xml = #"  <testsuite name="\#(escape(name))" id="\#(id)" tests="\#(cases.count)" failures="\#(f)" errors="0" skipped="\#(s)" time="0">"# + "\n"
        for testcase in cases {
            xml += #"    <testcase name="\#(escape(testcase.name))" classname="\#(escape(testcase.classname))" time="0""#
            if testcase.covered {
                xml += "/>\n"
                continue
            }
            let message = escape(testcase.message)
            xml += ">\n"
            xml += uncoveredAs == .failure
                ? #"      <failure message="\#(message)" type="uncovered">\#(escape(testcase.hint))</failure>"# + "\n"
                : #"      <skipped message="\#(message)"/>"# + "\n"
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n"
    }

    /// Attribute- and text-safe; characters XML 1.0 cannot hold at all are dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
