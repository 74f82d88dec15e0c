import Foundation

/// Runs a program to completion; returns its exit code and standard output. A program that is not
/// there throws `MissingTool`, which names scripts/setup.
@discardableResult
public func run(_ executable: String, _ arguments: [String],
                environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
    guard FileManager.default.isExecutableFile(atPath: executable) else { throw MissingTool(executable) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let (outData, errData) = readToEnd(out, err)
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// Both pipes read to their end at once: read one after the other, a program that fills the second
/// (64 KiB of warnings on standard error) blocks writing it while we wait for the first to end.
func readToEnd(_ out: Pipe, _ err: Pipe) -> (Data, Data) {
    final class Box: @unchecked Sendable { var data = Data() }
    let errBox = Box(), done = DispatchSemaphore(value: 0)
    let reader = err.fileHandleForReading
    Thread.detachNewThread {
        errBox.data = reader.readDataToEndOfFile()
        done.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    return (outData, errBox.data)
}

/// curl, for what URLSession hides (raw paths, exit codes of broken transfers).
public func curl(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let r = try run("/usr/bin/curl", ["-s", "--max-time", "5"] + arguments)
    return (r.status, r.output)
}

/// Runs `work`, which blocks (a child process, a socket read), on a thread of its own, and awaits it.
/// In a task it would hold one of the cooperative pool's threads for as long as it blocks: the pool
/// is as wide as the machine has cores (two in CI), and with the other one taken, a 5 s curl in a
/// `Task.detached` held the test's own awaits until curl gave up (CLITests, CI under
/// AddressSanitizer: the delayed answer the test waited for never came, as the test never got to
/// send the SIGTERM that releases it).
public func onItsOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// As `run`, but the program is killed (SIGKILL) after `seconds`: for a regression that would
/// otherwise never end. Also returns how long it ran.
public func run(_ executable: String, _ arguments: [String], killedAfter seconds: Double)
        throws -> (status: Int32, output: String, error: String, seconds: Double) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let started = Date()
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
    let (outData, errData) = readToEnd(out, err)
    process.waitUntilExit()
    watchdog.cancel()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self),
            Date().timeIntervalSince(started))
}
