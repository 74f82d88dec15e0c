import Foundation
import HTTPTypes
import StubdProtocol
import StubdCore
import StubdEngine

/// `/__stubd/ui`: the dashboard's page and its two files, embedded at build time (`PackageResources`,
/// Package.swift's `.embedInCode` resources: the files beside this one, as they are).
///
/// Every answer under it says: run no script but these files (no inline script, no other origin),
/// fetch nothing but stubd itself, never be framed (clickjacking an admin button), and take the
/// declared type as it is. The page holds no data; it reads the admin API, under its usual rules.
enum DashboardPage {
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        .cacheControl: "no-store",
    ]

    static let html = Data(PackageResources.dashboard_html)
    static let css = Data(PackageResources.dashboard_css)
    static let javascript = Data(PackageResources.dashboard_js)

    /// `file`: the dashboard file `call` names (`AdminEndpoint.dashboard`), "" for the page.
    static func answer(method: HTTPRequest.Method, file name: String, call: String) -> GeneratedResponse {
        guard method == .get || method == .head else {
            return secured(.problem(405, title: "Method not allowed", detail: "/__stubd/\(call) takes GET", headers: [.allow: "GET, HEAD"]))
        }
        let file: (type: String, bytes: Data)
        switch name {
        case "", "index.html": file = ("text/html; charset=utf-8", html)
        case "dashboard.css": file = ("text/css; charset=utf-8", css)
        case "dashboard.js": file = ("text/javascript; charset=utf-8", javascript)
        default:
            return secured(.problem(404, title: "No such dashboard file",
                                    detail: "/__stubd/\(call) is not part of the dashboard; open /__stubd/ui"))
        }
        return secured(GeneratedResponse(status: 200, headers: [.contentType: file.type], body: file.bytes))
    }

    /// Any answer under `/__stubd/ui`, refusals included, carries the page's headers.
    static func secured(_ response: GeneratedResponse) -> GeneratedResponse {
        var secured = response
        secured.headers.append(contentsOf: securityHeaders)
        return secured
    }
}
