import Synchronization

/// Ends work that waits on a network early, from another thread: a client's `notifications/cancelled`, or
/// the server shutting down. The waiting work says what cancelling it does (``onCancel(_:)``).
public final class Cancellation: Sendable {
    private struct State {
        var cancelled = false
        var handler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Marks the work cancelled and runs what it said cancelling does (once).
    public func cancel() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.handler = nil }
            return state.handler
        }
        handler?()
    }

    /// What cancelling does while the work waits; runs at once if it is already cancelled. Replaces the
    /// handler set before.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.handler = handler
            return false
        }
        if runNow { handler() }
    }
}
