import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of stubd's own (a tunnel's relay, a forward's transfer, the acceptor, the folder
/// watcher), started under a name that `ps -L`, `/proc/PID/task/*/comm`, gdb and Instruments show.
///
/// Why not `Thread.name`: set before `start()`, Foundation on Linux keeps it to itself (measured on
/// Swift 6.3.1: every tunnel thread showed its creator's name, `MHD-single`, so
/// `Benchmarks/hardening.py` could not tell a relay thread left behind from libdispatch's pool). The
/// thread names itself first, the only way both pthread APIs allow (Darwin's names the caller only).
enum NamedThread {
    /// `name` is cut to 15 bytes, the kernel's limit for a thread's name on Linux.
    static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            nameCurrentThread(name)
            body()
        }
        thread.name = name
        thread.start()
    }

    private static func nameCurrentThread(_ name: String) {
        let short = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        #if os(Linux)
        // Glibc's module leaves out pthread_setname_np (a GNU extension) and prctl is variadic, so
        // the thread writes its own name where the kernel keeps it.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = short.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #elseif canImport(Darwin)
        _ = pthread_setname_np(short)
        #endif
    }
}
