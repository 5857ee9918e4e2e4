import Testing

@testable import Protocol

/// The limit used by the stream tests below.
private let streamLimit = 32

/// A stream exercising every framing rule, and what must come out of it with `streamLimit`.
private let streamText: String =
    #"{"a":1}"# + "\n"  // plain line
    + "\r\n"  // blank (CRLF only)
    + "\n"  // blank
    + "   \n"  // spaces only
    + "\t \r\n"  // tab and space, CRLF
    + "second line\r\n"  // CRLF stripped
    + "Привет 😀\n"  // multibyte
    + "a\rb\n"  // a CR inside a line is kept
    + String(repeating: "x", count: 100) + "\n"  // too long
    + "after long\n"  // still delivered
    + String(repeating: "L", count: 32) + "\r\n"  // exactly the limit (+ CRLF): accepted
    + String(repeating: "M", count: 32) + "\n"  // exactly the limit (+ LF): accepted
    + String(repeating: "N", count: 33) + "\n"  // limit + 1: rejected
    + String(repeating: "O", count: 33) + "\r\n"  // limit + 1 (+ CRLF): rejected
    + String(repeating: "P", count: 31) + "\r\r\n"  // 31 + one CR kept: accepted
    + String(repeating: "y", count: 5000) + "\n"  // much too long
    + String(repeating: "z", count: 40) + "\n"  // too long, right after another
    + "  indented  \n"  // not blank: kept as is
    + "tail"  // unterminated: delivered by finish()

private let streamExpected: [FramerEvent] = [
    .text(#"{"a":1}"#),
    .text("second line"),
    .text("Привет 😀"),
    .text("a\rb"),
    .tooLong,
    .text("after long"),
    .text(String(repeating: "L", count: 32)),
    .text(String(repeating: "M", count: 32)),
    .tooLong,
    .tooLong,
    .text(String(repeating: "P", count: 31) + "\r"),
    .tooLong,
    .tooLong,
    .text("  indented  "),
    .text("tail"),
]

@Suite("LineFramer")
struct LineFramerTests {
    // MARK: Splitting

    @Test("the whole stream in one chunk")
    func wholeStream() {
        #expect(runFramer([utf8(streamText)], limit: streamLimit) == streamExpected)
    }

    @Test("the stream byte by byte")
    func byteByByte() {
        let chunks = utf8(streamText).map { [$0] }
        #expect(runFramer(chunks, limit: streamLimit) == streamExpected)
    }

    @Test("the stream in random splits", arguments: [1, 2, 3, 42, 1234, 0xDEAD_BEEF, 0x1234_5678_9ABC_DEF0] as [UInt64])
    func randomSplits(seed: UInt64) {
        let bytes = utf8(streamText)
        for maximumChunk in [2, 7, 33, 64, 300] {
            let chunks = randomChunks(bytes, seed: seed &+ UInt64(maximumChunk), maximumChunk: maximumChunk)
            #expect(chunks.reduce(0) { $0 + $1.count } == bytes.count)
            #expect(
                runFramer(chunks, limit: streamLimit) == streamExpected,
                "seed \(seed), chunks up to \(maximumChunk)")
        }
    }

    @Test("every single cut point gives the same lines")
    func everyCutPoint() {
        let bytes = utf8(streamText)
        for cut in 0...bytes.count {
            let chunks = [Array(bytes[..<cut]), Array(bytes[cut...])]
            #expect(runFramer(chunks, limit: streamLimit) == streamExpected, "cut at \(cut)")
        }
    }

    @Test("empty chunks change nothing")
    func emptyChunks() {
        #expect(runFramer([[], utf8("a\n"), [], [], utf8("b"), []], limit: 10) == [.text("a"), .text("b")])
        #expect(runFramer([[]], limit: 10) == [])
    }

    @Test("several lines in one chunk come out in order, before the next chunk")
    func orderWithinChunk() {
        var framer = LineFramer(maximumLineBytes: 100)
        var events: [FramerEvent] = []
        framer.feed(utf8("1\n2\n3")) { events.append(FramerEvent($0)) }
        #expect(events == [.text("1"), .text("2")])
        #expect(framer.bufferedByteCount == 1)
        framer.feed(utf8("4\n5\n")) { events.append(FramerEvent($0)) }
        #expect(events == [.text("1"), .text("2"), .text("34"), .text("5")])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("CRLF is stripped; a CR split from its LF is stripped too")
    func crlf() {
        #expect(runFramer([utf8("abc\r\n")], limit: 10) == [.text("abc")])
        #expect(runFramer([utf8("abc\r"), utf8("\n")], limit: 10) == [.text("abc")])
        #expect(runFramer([utf8("abc"), utf8("\r"), utf8("\n"), utf8("def\r\n")], limit: 10) == [.text("abc"), .text("def")])
    }

    @Test(
        "blank and white-space-only lines are skipped",
        arguments: ["\n", "\r\n", " \n", "\t\n", " \t \r\n", "\r\r\n", "\n\n\n", "   \r\n\t\t\n"])
    func blankLines(text: String) {
        #expect(runFramer([utf8(text)], limit: 100) == [])
        #expect(runFramer(utf8(text).map { [$0] }, limit: 100) == [])
        #expect(runFramer([utf8(text + "x\n" + text)], limit: 100) == [.text("x")])
    }

    @Test("lines keep arbitrary bytes, including NUL and invalid UTF-8")
    func arbitraryBytes() {
        let line: [UInt8] = [0x00, 0xFF, 0x7B, 0xC0, 0x20]
        #expect(runFramer([line + [0x0A]], limit: 100) == [.line(line)])
    }

    // MARK: Limit

    @Test("a line of exactly the limit is accepted, one byte more is rejected", arguments: [1, 2, 8, 100, 4096])
    func exactLimit(limit: Int) {
        let exact = String(repeating: "a", count: limit)
        let over = String(repeating: "b", count: limit + 1)
        for terminator in ["\n", "\r\n"] {
            let text = exact + terminator + over + terminator + "ok" + terminator
            let expected: [FramerEvent] =
                limit >= 2 ? [.text(exact), .tooLong, .text("ok")] : [.text(exact), .tooLong, .tooLong]
            #expect(runFramer([utf8(text)], limit: limit) == expected, "one chunk, \(terminator.debugDescription)")
            #expect(runFramer(utf8(text).map { [$0] }, limit: limit) == expected, "byte by byte")
            // Unterminated at the end of the stream: the same verdicts from finish().
            #expect(runFramer([utf8(exact)], limit: limit) == [.text(exact)])
            #expect(runFramer(utf8(exact).map { [$0] }, limit: limit) == [.text(exact)])
            #expect(runFramer([utf8(over)], limit: limit) == [.tooLong])
            #expect(runFramer(utf8(over).map { [$0] }, limit: limit) == [.tooLong])
        }
    }

    @Test("a line of limit bytes plus CR, cut before the LF, is accepted")
    func limitPlusCR() {
        let line = String(repeating: "c", count: 16)
        #expect(runFramer([utf8(line + "\r"), utf8("\n")], limit: 16) == [.text(line)])
        #expect(runFramer([utf8(line), utf8("\r"), utf8("\n")], limit: 16) == [.text(line)])
        #expect(runFramer([utf8(line + "\r")], limit: 16) == [.text(line)])  // finish() strips it too
    }

    @Test("a long line in one chunk is reported exactly once and the next lines still come")
    func longLineOneChunk() {
        let text = "before\n" + String(repeating: "x", count: 10_000) + "\nafter\n"
        #expect(runFramer([utf8(text)], limit: 100) == [.text("before"), .tooLong, .text("after")])
    }

    @Test("a long line split over many chunks is reported exactly once", arguments: [1, 3, 50, 99, 100, 101, 102, 250])
    func longLineManyChunks(chunkSize: Int) {
        let text = "before\n" + String(repeating: "x", count: 1_000) + "\nafter\n" + String(repeating: "y", count: 500)
            + "\r\nlast"
        let bytes = utf8(text)
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map {
            Array(bytes[$0..<min(bytes.count, $0 + chunkSize)])
        }
        #expect(
            runFramer(chunks, limit: 100) == [.text("before"), .tooLong, .text("after"), .tooLong, .text("last")])
    }

    @Test("skipping a 10 MB line fed in 4 KiB chunks keeps memory bounded")
    func tenMegabyteLine() {
        let limit = 64 * 1024
        let chunkSize = 4096
        let total = 10 * 1024 * 1024
        var framer = LineFramer(maximumLineBytes: limit)
        var events: [FramerEvent] = []
        var largestBuffer = 0

        framer.feed(utf8("first\n")) { events.append(FramerEvent($0)) }
        let chunk = [UInt8](repeating: UInt8(ascii: "q"), count: chunkSize)
        var fed = 0
        while fed < total {
            framer.feed(chunk) { events.append(FramerEvent($0)) }
            fed += chunkSize
            largestBuffer = max(largestBuffer, framer.bufferedByteCount)
        }
        #expect(largestBuffer <= limit + 1)
        #expect(framer.bufferedByteCount == 0, "nothing is held once skipping has begun")
        #expect(events == [.text("first"), .tooLong])

        framer.feed(utf8("\n")) { events.append(FramerEvent($0)) }
        framer.feed(utf8(#"{"ok":true}"# + "\n")) { events.append(FramerEvent($0)) }
        framer.finish { events.append(FramerEvent($0)) }
        #expect(events == [.text("first"), .tooLong, .text(#"{"ok":true}"#)])
        #expect(events.filter { $0 == .tooLong }.count == 1)
    }

    @Test("a 10 MB line in one chunk is reported once")
    func tenMegabyteLineOneChunk() {
        var bytes = [UInt8](repeating: UInt8(ascii: "w"), count: 10 * 1024 * 1024)
        bytes += utf8("\nnext\n")
        #expect(runFramer([bytes], limit: 64 * 1024) == [.tooLong, .text("next")])
    }

    @Test("bufferedByteCount reports the held partial line and never exceeds limit + 1")
    func bufferedByteCount() {
        var framer = LineFramer(maximumLineBytes: 10)
        #expect(framer.maximumLineBytes == 10)
        #expect(framer.bufferedByteCount == 0)
        framer.feed(utf8("abc")) { _ in }
        #expect(framer.bufferedByteCount == 3)
        framer.feed(utf8("defghijk")) { _ in }  // 11 = limit + 1 may be held (a CR may follow)
        #expect(framer.bufferedByteCount == 11)
        var events: [FramerEvent] = []
        framer.feed(utf8("l")) { events.append(FramerEvent($0)) }  // 12: over, skipping starts
        #expect(events == [.tooLong])
        #expect(framer.bufferedByteCount == 0)
        framer.feed(utf8("mnop\nq")) { events.append(FramerEvent($0)) }
        #expect(events == [.tooLong])
        #expect(framer.bufferedByteCount == 1)
    }

    @Test("random streams of many line lengths: same events for every split", arguments: [7, 8, 9, 10] as [UInt64])
    func randomStreams(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let limit = 20
        var bytes: [UInt8] = []
        var expected: [FramerEvent] = []
        for index in 0..<300 {
            let length = Int.random(in: 0...30, using: &rng)
            let crlf = Bool.random(using: &rng)
            let body = (0..<length).map { _ in UInt8(ascii: "a") + UInt8(index % 26) }
            bytes += body + (crlf ? [0x0D, 0x0A] : [0x0A])
            if length > limit {
                expected.append(.tooLong)
            } else if length > 0 {
                expected.append(.line(body))
            }
        }
        #expect(runFramer([bytes], limit: limit) == expected)
        #expect(runFramer(bytes.map { [$0] }, limit: limit) == expected)
        for maximumChunk in [3, 21, 22, 23, 100] {
            let chunks = randomChunks(bytes, seed: seed * 1000 + UInt64(maximumChunk), maximumChunk: maximumChunk)
            #expect(runFramer(chunks, limit: limit) == expected, "seed \(seed), chunks up to \(maximumChunk)")
        }
    }

    // MARK: finish()

    @Test("finish() delivers a trailing unterminated line")
    func finishDeliversTail() {
        #expect(runFramer([utf8("a\nb")], limit: 10) == [.text("a"), .text("b")])
        #expect(runFramer([utf8("a\nb\r")], limit: 10) == [.text("a"), .text("b")])
        #expect(runFramer([utf8("a\nb")], limit: 10, finish: false) == [.text("a")])
    }

    @Test("finish() delivers nothing when the stream ended with a newline or with blanks")
    func finishNothingPending() {
        #expect(runFramer([utf8("a\n")], limit: 10) == [.text("a")])
        #expect(runFramer([utf8("a\n   ")], limit: 10) == [.text("a")])
        #expect(runFramer([utf8("a\n\r")], limit: 10) == [.text("a")])
        #expect(runFramer([], limit: 10) == [])
    }

    @Test("finish() delivers nothing when the stream ended in the middle of a skipped line")
    func finishInsideSkippedLine() {
        #expect(runFramer([utf8("a\n" + String(repeating: "x", count: 50))], limit: 10) == [.text("a"), .tooLong])
        let chunks = utf8("a\n" + String(repeating: "x", count: 50)).map { [$0] }
        #expect(runFramer(chunks, limit: 10) == [.text("a"), .tooLong])
    }

    @Test("finish() resets the framer: it can be fed again, and skipping does not carry over")
    func finishResets() {
        var framer = LineFramer(maximumLineBytes: 5)
        var events: [FramerEvent] = []
        framer.feed(utf8("abc")) { events.append(FramerEvent($0)) }
        framer.finish { events.append(FramerEvent($0)) }
        framer.finish { events.append(FramerEvent($0)) }  // a second finish has nothing left
        #expect(events == [.text("abc")])
        #expect(framer.bufferedByteCount == 0)

        framer.feed(utf8("0123456789")) { events.append(FramerEvent($0)) }  // skipping
        framer.finish { events.append(FramerEvent($0)) }
        framer.feed(utf8("xy\n")) { events.append(FramerEvent($0)) }  // a fresh line, not the skipped one's tail
        #expect(events == [.text("abc"), .tooLong, .text("xy")])
    }
}
