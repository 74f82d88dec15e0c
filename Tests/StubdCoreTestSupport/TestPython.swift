import Foundation

/// The Python the tests run: the virtual environment scripts/setup makes in the build folder, holding
/// the modules pinned in scripts/requirements-test.txt. `STUBD_TEST_PYTHON` names another (one with
/// the same modules). Missing, a test that runs it fails with `MissingTool`.
public let testPython: String = ProcessInfo.processInfo.environment["STUBD_TEST_PYTHON"]
    ?? repositoryRoot.appendingPathComponent(".build/venv/bin/python").path

/// Fails the test with `MissingTool` unless `testPython` imports every one of `modules`.
public func requirePython(modules: String...) throws {
    for module in modules {
        let r = try run(testPython, ["-c", "import \(module)"])
        guard r.status == 0 else { throw MissingTool("the Python module \(module) (in \(testPython))") }
    }
}
