import Domain
import Foundation

/// The three-way merge sync runs on a text edited on two devices apart (``TextMerge``): a 100 KB note with
/// 1,000 word edits on each side, and the texts that cost it most.
enum MergeBenchmark {
    /// A text of `bytes` bytes, about: lines of ten words from a vocabulary of 2,000, a blank line every
    /// six lines.
    static func prose(bytes: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        var words: [String] = []
        var size = 0
        while size < bytes {
            let word = "w\(random.next() % 2000)" + (words.count % 10 == 9 ? (words.count % 60 == 59 ? "\n\n" : "\n") : " ")
            words.append(word)
            size += word.utf8.count
        }
        return words
    }

    /// `words` with `count` of them changed, at places `pick` allows.
    static func edited(_ words: [String], count: Int, seed: UInt64, where pick: (Int) -> Bool) -> String {
        var random = SeededGenerator(seed: seed)
        var words = words
        var done = 0
        while done < count {
            let at = Int(random.next() % UInt64(words.count))
            guard pick(at), !words[at].hasPrefix("edit") else { continue }
            let ending = words[at].drop { !$0.isWhitespace }
            words[at] = "edit\(seed)-\(done)" + ending
            done += 1
        }
        return words.joined()
    }

    static func time(_ runs: Int, _ body: () -> TextMerge.Result) -> (median: Double, worst: Double, result: TextMerge.Result) {
        var times: [Double] = []
        var result = body()
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            result = body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        return (times[times.count / 2], times[times.count - 1], result)
    }

    static func run() {
        report("## Three-way merge of a text edited apart (`TextMerge`, what sync and `text.merge` run)")
        report("")
        report("| text | median | slowest of 20 | clashes |")
        report("| --- | ---: | ---: | ---: |")
        let words = prose(bytes: 100_000, seed: 1)
        let base = words.joined()
        // Each side edits 1,000 words: ours in the first half of each line, theirs in the second.
        let ours = edited(words, count: 1000, seed: 2) { $0 % 10 < 5 }
        let theirs = edited(words, count: 1000, seed: 3) { $0 % 10 >= 5 }
        let cases: [(String, String, String, String)] = [
            ("100 KB, 1,000 word edits a side, different words", base, ours, theirs),
            ("100 KB, 1,000 word edits a side, the same words", base, ours, edited(words, count: 1000, seed: 4) { $0 % 10 < 5 }),
            ("100 KB, one side rewritten whole", base, ours, prose(bytes: 100_000, seed: 5).joined()),
            ("1 MB (a note's most), 1,000 word edits a side", prose(bytes: 1_000_000, seed: 6).joined(), "", ""),
        ]
        // The most a diff can cost within its bound: lines both sides have, in the opposite order.
        let lines = (0..<(TextDiff.maximumLines / 2)).map { "line \($0) of a list that is turned upside down\n" }
        let reversed = ("\(TextDiff.maximumLines / 2) lines, one side turned upside down", lines.joined(), lines.reversed().joined(), lines.joined() + "one more\n")
        for (name, base, ours, theirs) in cases + [reversed] {
            var (ours, theirs) = (ours, theirs)
            if ours.isEmpty {
                let big = prose(bytes: 1_000_000, seed: 6)
                ours = edited(big, count: 1000, seed: 7) { $0 % 10 < 5 }
                theirs = edited(big, count: 1000, seed: 8) { $0 % 10 >= 5 }
            }
            let measured = time(20) { TextMerge.merge(base: base, ours: ours, theirs: theirs) }
            report(
                "| \(name) | \(String(format: "%.1f", measured.median)) ms | \(String(format: "%.1f", measured.worst)) ms | \(measured.result.clashes) |")
        }
        report("")
    }
}

/// SplitMix64, so every run measures the same texts.
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
