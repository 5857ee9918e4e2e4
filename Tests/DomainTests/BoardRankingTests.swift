import Foundation
import Testing

@testable import Domain

/// The board's ranking formulas (SPEC §10), against values computed independently with Python:
///
///     hot  = sign(v)·log10(max(|v|, 1)) + (ms / 1000 − 1134028003) / 45000
///     best = (p + z²/2n − z·√((p(1−p) + z²/4n) / n)) / (1 + z²/n), z = 1.281551565545, 0 when n = 0
@Suite struct BoardRankingTests {
    struct HotCase: Sendable, CustomTestStringConvertible {
        let votes: Int64
        let milliseconds: Int64
        let expected: Double
        var testDescription: String { "votes \(votes) at \(milliseconds) ms" }
    }

    struct BestCase: Sendable, CustomTestStringConvertible {
        let ups: Int64
        let downs: Int64
        let expected: Double
        var testDescription: String { "\(ups) up, \(downs) down" }
    }

    static let epoch: Int64 = 1_134_028_003

    static let hotCases: [HotCase] = [
        HotCase(votes: 0, milliseconds: epoch * 1_000, expected: 0.0),
        HotCase(votes: 10, milliseconds: (epoch + 45_000) * 1_000, expected: 2.0),
        HotCase(votes: -100, milliseconds: epoch * 1_000, expected: -2.0),
        HotCase(votes: -100, milliseconds: (epoch + 90_000) * 1_000, expected: 0.0),
        HotCase(votes: 1, milliseconds: epoch * 1_000, expected: 0.0),
        HotCase(votes: -1, milliseconds: epoch * 1_000, expected: 0.0),
        HotCase(votes: 5, milliseconds: epoch * 1_000 + 500, expected: 0.6989811154471299),
        HotCase(votes: 123, milliseconds: 1_779_355_200_000, expected: 14342.694282889217),
        HotCase(votes: -7, milliseconds: 1_779_355_200_000, expected: 14339.759279737764),
        HotCase(votes: 0, milliseconds: 1_779_355_200_000, expected: 14340.604377777778),
    ]

    static let bestCases: [BestCase] = [
        BestCase(ups: 0, downs: 0, expected: 0),
        BestCase(ups: 1, downs: 0, expected: 0.37844750322520615),
        BestCase(ups: 10, downs: 2, expected: 0.6578125361049163),
        BestCase(ups: 100, downs: 100, expected: 0.45487521055824565),
        BestCase(ups: 3, downs: 1, expected: 0.4325414503689865),
        BestCase(ups: 1_000, downs: 1, expected: 0.9966660828610783),
        BestCase(ups: 30, downs: 20, expected: 0.5093966239252079),
        BestCase(ups: 0, downs: 5, expected: 0),
    ]

    @Test(arguments: hotCases)
    func hotIsSignedLog10OfVotesPlusAgeOver45000Seconds(_ example: HotCase) {
        let hot = BoardRanking.hot(votes: example.votes, createdAt: example.milliseconds)
        #expect(abs(hot - example.expected) < 1e-9, "got \(hot)")
    }

    @Test func hotGainsOnePer45000SecondsAndOnePerTenfoldVotes() {
        let base = BoardRanking.hot(votes: 10, createdAt: 1_779_355_200_000)
        #expect(abs(BoardRanking.hot(votes: 10, createdAt: 1_779_355_200_000 + 45_000_000) - base - 1) < 1e-9)
        #expect(abs(BoardRanking.hot(votes: 100, createdAt: 1_779_355_200_000) - base - 1) < 1e-9)
        #expect(abs(BoardRanking.hot(votes: -10, createdAt: 1_779_355_200_000) - base + 2) < 1e-9)
    }

    @Test(arguments: bestCases)
    func bestIsTheWilsonLowerBoundWithZ1_281551565545(_ example: BestCase) {
        let best = BoardRanking.best(ups: example.ups, downs: example.downs)
        #expect(abs(best - example.expected) < 1e-12, "got \(best)")
    }

    @Test func bestWithNoVotesIsExactlyZero() {
        #expect(BoardRanking.best(ups: 0, downs: 0) == 0)
        #expect(!BoardRanking.best(ups: 0, downs: 0).isNaN)
    }

    @Test func bestTrustsManyVotesMoreThanFewAtTheSameShare() {
        #expect(BoardRanking.best(ups: 10, downs: 0) > BoardRanking.best(ups: 1, downs: 0))
        #expect(BoardRanking.best(ups: 100, downs: 20) > BoardRanking.best(ups: 5, downs: 1))
        for n: Int64 in [1, 2, 10, 1_000] {
            let score = BoardRanking.best(ups: n, downs: n)
            #expect(score > 0 && score < 0.5)
        }
    }
}
