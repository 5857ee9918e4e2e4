#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The write end of the self-pipe that the signal handler pokes (read only by that handler).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Turns SIGTERM and SIGINT into a readable file descriptor, so the server loop can `poll` for input and
/// for a stop request at once; SIGPIPE is ignored for good, so a vanished reader is an error, not a death.
struct TerminationSignals {
    /// Becomes readable when SIGTERM or SIGINT arrives.
    let descriptor: Int32

    static func install() -> TerminationSignals? {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
        }
        #else
        action.__sigaction_u.__sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
        }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        // A parent may hand down a mask that blocks them (some test runners and supervisors do).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTERM)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return TerminationSignals(descriptor: ends[0])
    }
}
