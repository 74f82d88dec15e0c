import StubdProtocol

/// Coverage as JUnit XML, which CI systems show without a plugin: a suite per route, a testcase per
/// answer or quota state, an uncovered one failing (or skipped) with what to do in its message.
enum JUnitCoverage {
    static func render(_ report: CoverageReport, uncoveredAs: CoverageOutput.Uncovered) -> String {
        let items = report.routes.flatMap(\.items)
        let operations = report.operations ?? []
        let statuses = operations.reduce(0) { $0 + $1.documented.count }
        let missing = items.filter { !$0.isCovered }.count + operations.reduce(0) { $0 + $1.unanswered.count }
        let (failures, skipped) = uncoveredAs == .failure ? (missing, 0) : (0, missing)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="stubd coverage" tests="\#(items.count + statuses)" failures="\#(failures)" errors="0" skipped="\#(skipped)" time="0">"# + "\n"
        for (index, route) in report.routes.enumerated() {
            let missing = route.items.filter { !$0.isCovered }.count
            let (f, s) = uncoveredAs == .failure ? (missing, 0) : (0, missing)
            xml += #"  <testsuite name="\#(escape(route.signature))" id="\#(index)" tests="\#(route.items.count)" failures="\#(f)" errors="0" skipped="\#(s)" time="0">"# + "\n"
            for item in route.items {
                xml += #"    <testcase name="\#(escape(item.title))" classname="\#(escape(route.route))" time="0""#
                if item.isCovered {
                    xml += "/>\n"
                    continue
                }
                let message = escape(CoverageReport.explain(item, on: route))
                xml += ">\n"
                xml += uncoveredAs == .failure
                    ? #"      <failure message="\#(message)" type="uncovered">\#(escape(item.hint))</failure>"# + "\n"
                    : #"      <skipped message="\#(message)"/>"# + "\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        // With a spec: a suite per operation, a testcase per documented status.
        for (offset, operation) in operations.enumerated() {
            let missing = operation.unanswered.count
            let (f, s) = uncoveredAs == .failure ? (missing, 0) : (0, missing)
            xml += #"  <testsuite name="\#(escape(operation.operation))" id="\#(report.routes.count + offset)" tests="\#(operation.documented.count)" failures="\#(f)" errors="0" skipped="\#(s)" time="0">"# + "\n"
            for status in operation.documented {
                xml += #"    <testcase name="\#(status)" classname="\#(escape("spec " + operation.operation))" time="0""#
                if operation.answered.contains(status) {
                    xml += "/>\n"
                    continue
                }
                let message = escape(CoverageReport.explain(status, of: operation))
                xml += ">\n"
                xml += uncoveredAs == .failure
                    ? #"      <failure message="\#(message)" type="uncovered">\#(escape(operation.hint(for: status)))</failure>"# + "\n"
                    : #"      <skipped message="\#(message)"/>"# + "\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>"
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
