import Testing
@testable import StubdCore
@testable import StubdEngine

/// Where a path goes: a session prefix, the admin API, or the stubs. Compared as bytes since the
/// request path's profile showed String.hasPrefix; these pin what the comparison must keep.
@Suite struct RequestTargetTests {
    @Test func theAdminAPIIsExactlySlashStubdAndBelow() {
        #expect(RequestTarget.resolve(path: "/__stubd", sessionHeader: nil, sessionQuery: nil).adminCall == "")
        #expect(RequestTarget.resolve(path: "/__stubd/hits/wait", sessionHeader: nil, sessionQuery: nil).adminCall == "hits/wait")
        #expect(RequestTarget.resolve(path: "/__stubdx", sessionHeader: nil, sessionQuery: nil).adminCall == nil)
        #expect(RequestTarget.resolve(path: "/__stub", sessionHeader: nil, sessionQuery: nil).adminCall == nil)
        #expect(RequestTarget.resolve(path: "/api/__stubd/hits", sessionHeader: nil, sessionQuery: nil).adminCall == nil)
    }

    @Test func aSessionPrefixNamesTheSessionAndIsTakenOff() {
        let stub = RequestTarget.resolve(path: "/__s/t1/api/x", sessionHeader: "other", sessionQuery: "q")
        #expect(stub == RequestTarget(session: "t1", path: "/api/x", adminCall: nil))
        #expect(RequestTarget.resolve(path: "/__s/t1", sessionHeader: nil, sessionQuery: nil).path == "/")
        let admin = RequestTarget.resolve(path: "/__s/t2/__stubd/hits", sessionHeader: nil, sessionQuery: "q")
        #expect(admin == RequestTarget(session: "t2", path: "/__stubd/hits", adminCall: "hits"))
        #expect(RequestTarget.resolve(path: "/__sx/t1/api", sessionHeader: nil, sessionQuery: nil).path == "/__sx/t1/api")
    }

    @Test func theQueryNamesTheSessionOfAnAdminCallOnly() {
        #expect(RequestTarget.resolve(path: "/__stubd/hits", sessionHeader: nil, sessionQuery: "t3").session == "t3")
        #expect(RequestTarget.resolve(path: "/__stubd/hits", sessionHeader: "h", sessionQuery: "t3").session == "h")
        #expect(RequestTarget.resolve(path: "/api/x", sessionHeader: nil, sessionQuery: "t3").session == "")
    }
}
