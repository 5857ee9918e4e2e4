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

/// A post of the Reddit-like board.
public struct BoardPost: Sendable, Equatable {
    public var id: String
    public var title: String
    public var ups: Int64
    public var downs: Int64
    public var createdAt: Int64
    public var updatedAt: Int64
    public var revision: Int64
    /// How the voter that asked voted, when a voter asked.
    public var myVote: VoteDirection?

    public var votes: Int64 { ups - downs }

    public static let maximumTitleLength = 255

    static func check(title: String) throws(DomainError) {
        if title.isEmpty { throw .validation(reason: .emptyTitle, field: "title") }
        try TextRules.check(title, field: "title", characters: maximumTitleLength, reason: .titleTooLong)
    }
}

/// An up or down vote.
public enum VoteDirection: String, Sendable {
    case up, down

    var value: Int64 { self == .up ? 1 : -1 }

    init?(value: Int64) {
        switch value {
        case 1: self = .up
        case -1: self = .down
        default: return nil
        }
    }
}

/// What `board.vote` asks for.
public enum VoteRequest: String, Sendable {
    case up, down, clear
}

/// The orders `board.list` knows.
public enum BoardSort: String, Sendable, CaseIterable {
    case votes, title, new, hot, best
}

/// The board's ranking formulas.
public enum BoardRanking {
    /// Reddit's hot ranking: sign(votes)·log10(max(|votes|, 1)) + (createdAt in epoch seconds − 1134028003) / 45000.
    public static func hot(votes: Int64, createdAt milliseconds: Int64) -> Double {
        let magnitude = log10(Double(max(abs(votes), 1)))
        let sign: Double = votes > 0 ? 1 : (votes < 0 ? -1 : 0)
        let seconds = Double(milliseconds) / 1000
        return sign * magnitude + (seconds - 1_134_028_003) / 45_000
    }

    /// The lower bound of the Wilson score interval for ups/(ups+downs), z = 1.281551565545 (80 %);
    /// 0 when there are no votes.
    public static func best(ups: Int64, downs: Int64) -> Double {
        let total = Double(ups + downs)
        // Without up votes the bound is exactly 0 (the formula leaves a rounding remainder of about 1e-17).
        guard total > 0, ups > 0 else { return 0 }
        let z = 1.281551565545
        let share = Double(ups) / total
        let numerator = share + z * z / (2 * total) - z * ((share * (1 - share) + z * z / (4 * total)) / total).squareRoot()
        return max(0, numerator / (1 + z * z / total))
    }
}
