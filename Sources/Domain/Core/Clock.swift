#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the domain gets the current time, in milliseconds since 1970 (passed in, so tests control it).
public protocol Clock: AnyObject {
    func nowMilliseconds() -> Int64
}

/// The real wall clock.
public final class SystemClock: Clock {
    public init() {}

    public func nowMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}

/// A clock that tests set and advance by hand.
public final class ManualClock: Clock {
    public var milliseconds: Int64

    public init(milliseconds: Int64 = 1_779_355_200_000) {  // 2026-05-21T09:20:00Z
        self.milliseconds = milliseconds
    }

    public func nowMilliseconds() -> Int64 { milliseconds }

    public func advance(by delta: Int64) { milliseconds += delta }
}
