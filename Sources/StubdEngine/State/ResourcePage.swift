import HTTPTypes
/// What a list request asks for: the filters (every query name that is not a paging one, compared
/// with the item's field of that name as text; `ResourceStore.list` drops a name no item has) and
/// the window, in either common style.
package struct ResourcePage {
    enum Style { case all, pages(page: Int, perPage: Int), window(offset: Int, limit: Int?) }

    var filters: [(field: String, value: String)] = []
    var style = Style.all

    static let defaultPerPage = 10
    /// Query names a list compares with each item: a list costs items × the names they have, and no
    /// app filters on more than a few (an API key and a language are two, and filter nothing).
    static let maxFilters = 100

    var offset: Int {
        switch style {
        case .all: return 0
        case let .pages(page, perPage): return (page - 1).multipliedReportingOverflow(by: perPage).overflow ? Int.max / 2 : (page - 1) * perPage
        case .window(let offset, _): return offset
        }
    }

    var limit: Int? {
        switch style {
        case .all: return nil
        case .pages(_, let perPage): return perPage
        case .window(_, let limit): return limit
        }
    }

    /// `?done=true&page=2&per_page=20`, or `?limit=20&offset=40`; a paging value that is not a whole
    /// number, or both styles at once, is refused with what to send instead.
    static func read(_ query: [QueryItem]) throws(ResourceRefusal) -> ResourcePage {
        var page = ResourcePage()
        // Four locals, not a table: every list request reads its query here.
        var pageNumber: Int?, perPage: Int?, limit: Int?, offset: Int?
        for item in query {
            let name = item.name
            guard name == "page" || name == "per_page" || name == "limit" || name == "offset" else {
                guard page.filters.count < maxFilters else {
                    throw ResourceRefusal(status: .badRequest, title: "Too many filters",
                                          detail: "a list takes at most \(maxFilters) query names to filter on besides page, per_page, limit and offset; send fewer")
                }
                page.filters.append((name, item.value ?? ""))
                continue
            }
            guard let text = item.value, let n = Int(text), n >= 0 else {
                throw ResourceRefusal(status: .badRequest, title: "Bad paging",
                                      detail: "'\(name)' must be a whole number ≥ 0 (page and per_page ≥ 1), was '\(item.value ?? "")'")
            }
            switch name {
            case "page": pageNumber = n
            case "per_page": perPage = n
            case "limit": limit = n
            default: offset = n
            }
        }
        let pageStyle = pageNumber != nil || perPage != nil
        let windowStyle = limit != nil || offset != nil
        if pageStyle && windowStyle {
            throw ResourceRefusal(status: .badRequest, title: "Bad paging",
                                  detail: "page/per_page and limit/offset are two ways to page: send one of them")
        }
        if pageStyle {
            let number = pageNumber ?? 1
            let perPage = perPage ?? defaultPerPage
            guard number >= 1, perPage >= 1 else {
                throw ResourceRefusal(status: .badRequest, title: "Bad paging", detail: "page and per_page start at 1")
            }
            page.style = .pages(page: number, perPage: perPage)
        } else if windowStyle {
            page.style = .window(offset: offset ?? 0, limit: limit)
        }
        return page
    }
}
