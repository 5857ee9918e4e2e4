import Testing

@testable import Protocol

// Shared helpers for the Protocol tests.

/// SplitMix64: a tiny, fully deterministic generator, so "random" splits are reproducible by seed.
struct SplitMix64: RandomNumberGenerator {
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

/// The UTF-8 bytes of `text`.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The error parsing `bytes` throws, or `nil` when it parses.
func parseFailure(_ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(bytes, maximumDepth: maximumDepth)
        return nil
    } catch {
        return error
    }
}

/// The error parsing `text` throws, or `nil` when it parses.
func parseFailure(_ text: String, maximumDepth: Int = JSONParser.defaultMaximumDepth) -> JSONParseError? {
    parseFailure(utf8(text), maximumDepth: maximumDepth)
}

/// `depth` arrays nested inside each other, innermost holding `inner` (empty when `nil`).
func nestedArrays(_ depth: Int, inner: String = "") -> String {
    String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
}

/// `depth` objects nested inside each other through the key `"k"`, innermost value `1`.
func nestedObjects(_ depth: Int) -> String {
    precondition(depth >= 1)
    return String(repeating: #"{"k":"#, count: depth - 1) + #"{"k":1}"# + String(repeating: "}", count: depth - 1)
}

/// `depth` containers alternating array, object, array, ...
func nestedMixed(_ depth: Int) -> String {
    var open = ""
    var close = ""
    for level in 0..<depth {
        if level % 2 == 0 {
            open += "["
            close = "]" + close
        } else {
            open += #"{"k":"#
            close = "}" + close
        }
    }
    return open + "1" + close
}

/// Decodes one line with `decoder`.
func decodeLine(_ bytes: [UInt8], decoder: MessageDecoder = MessageDecoder()) -> IncomingMessage {
    bytes.withUnsafeBytes { decoder.decode($0) }
}

/// Decodes one line of text with `decoder`.
func decodeLine(_ text: String, decoder: MessageDecoder = MessageDecoder()) -> IncomingMessage {
    decodeLine(utf8(text), decoder: decoder)
}

extension IncomingMessage {
    /// The error of a `.rejected` message.
    var rejection: ResponseError? {
        if case .rejected(let error) = self { return error }
        return nil
    }

    /// The call of a `.single` message.
    var singleCall: IncomingCall? {
        if case .single(let call) = self { return call }
        return nil
    }

    /// The calls of a `.batch` message.
    var batchCalls: [IncomingCall]? {
        if case .batch(let calls) = self { return calls }
        return nil
    }
}

extension ResponseError {
    /// `data.reason`, when present.
    var reason: String? { data?["reason"]?.stringValue }
}

/// A framer event copied out of the callback (the line buffer is only valid during it).
enum FramerEvent: Equatable, CustomStringConvertible {
    case line([UInt8])
    case tooLong

    init(_ event: LineFramer.Event) {
        switch event {
        case .line(let raw): self = .line(Array(raw))
        case .lineTooLong: self = .tooLong
        }
    }

    static func text(_ line: String) -> FramerEvent { .line(utf8(line)) }

    var description: String {
        switch self {
        case .line(let bytes): return "line(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
        case .tooLong: return "tooLong"
        }
    }
}

/// Feeds `chunks` to a fresh framer (then finishes it, unless told not to) and returns what came out.
func runFramer(_ chunks: [[UInt8]], limit: Int, finish: Bool = true) -> [FramerEvent] {
    var framer = LineFramer(maximumLineBytes: limit)
    var events: [FramerEvent] = []
    for chunk in chunks {
        framer.feed(chunk) { events.append(FramerEvent($0)) }
    }
    if finish {
        framer.finish { events.append(FramerEvent($0)) }
    }
    return events
}

/// `bytes` cut into chunks of random sizes in `0...maximumChunk` (empty chunks included on purpose).
func randomChunks(_ bytes: [UInt8], seed: UInt64, maximumChunk: Int) -> [[UInt8]] {
    var rng = SplitMix64(seed: seed)
    var chunks: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
        let size = Int.random(in: 0...maximumChunk, using: &rng)
        let end = min(bytes.count, start + size)
        chunks.append(Array(bytes[start..<end]))
        start = end
    }
    return chunks
}
