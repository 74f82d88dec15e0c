public import Foundation
public import StubdClient

extension StubFixture {
    /// The engine answering `stubs` inside this process with no socket, on every platform: the
    /// control's `urlSession` and `sessionConfiguration` reach it whatever host a request names, and
    /// its `baseURL` (`http://stubd.invalid`) only through them. Throws `CatalogLoadError` with every
    /// problem in the folder. The teardown closes it: a request still made through its sessions fails.
    public static func startWithoutSocket(stubs: URL) throws -> Started {
        let engine = try InProcessStubs.load(stubs: stubs)
        return Started(control: engine, teardown: { engine.close() }, description: "in this process, without a socket")
    }
}
