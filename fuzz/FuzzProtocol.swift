// The libFuzzer entry over the protocol layer, compiled together with Sources/Protocol by scripts/fuzz.
//
// Each input is a byte stream as a client could send it. It goes through the line framer in chunks of
// sizes drawn from the input itself, each line through the message decoder, and each line that is JSON
// through the writer and back. Besides crashes and sanitizer reports, a finding is any broken promise:
// framing that depends on how the stream was cut, a decoder that answers the same line two ways (or its
// shortcut for the usual request otherwise than decoding in full), a value that does not survive writing
// and reading back, or a budget that changes a value instead of refusing it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    var draws = InputDraws(input)
    let maximumLineBytes = [16, 256, 4096, 1 << 20][draws.next(below: 4)]

    let whole = frame(input, maximumLineBytes: maximumLineBytes) { _ in input.count }
    let chunked = frame(input, maximumLineBytes: maximumLineBytes) { _ in
        1 + draws.next(below: [1, 2, 7, 64, 1024][draws.next(below: 5)])
    }
    check(whole == chunked, "framing depends on how the stream is cut: \(whole) vs \(chunked)")

    let decoder = MessageDecoder(maximumMessageBytes: maximumLineBytes)
    for case .line(let line) in whole {
        line.withUnsafeBytes { raw in
            let message = decoder.decode(raw)
            check(message == decoder.decode(raw), "decoding the same line twice differs")
            check(message == decoder.decodeInFull(raw), "the usual request's shortcut and decoding in full differ")
            checkParse(raw, decoder: decoder, message: message, budget: draws.next(below: 4096))
        }
    }
    return 0
}

/// What the framer reported, in order (lines copied out of its callback).
enum FramedEvent: Equatable, CustomStringConvertible {
    case line([UInt8])
    case lineTooLong

    var description: String {
        switch self {
        case .line(let bytes): return "line(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
        case .lineTooLong: return "lineTooLong"
        }
    }
}

/// Frames `input` fed in chunks of the sizes `nextChunk` gives, then finishes the stream.
func frame(_ input: UnsafeRawBufferPointer, maximumLineBytes: Int, nextChunk: (Int) -> Int) -> [FramedEvent] {
    var framer = LineFramer(maximumLineBytes: maximumLineBytes)
    var events: [FramedEvent] = []
    func record(_ event: LineFramer.Event) {
        switch event {
        case .line(let line):
            check(line.count <= maximumLineBytes, "a line longer than the limit was delivered")
            events.append(.line(Array(line)))
        case .lineTooLong:
            events.append(.lineTooLong)
        }
    }
    var offset = 0
    while offset < input.count {
        let end = min(input.count, offset + nextChunk(offset))
        framer.feed(UnsafeRawBufferPointer(rebasing: input[offset..<end]), record)
        check(framer.bufferedByteCount <= maximumLineBytes + 1, "the framer holds more than the limit")
        offset = end
    }
    framer.finish(record)
    return events
}

/// Parses `line` every way the server can and checks that the answers agree with each other.
func checkParse(
    _ line: UnsafeRawBufferPointer, decoder: MessageDecoder, message: IncomingMessage, budget: Int) {
    let value: JSONValue
    do {
        value = try JSONParser.parse(line)
    } catch {
        // Unparseable without a budget: unparseable with one (the reason may differ: the budget can run out
        // before the syntax error is reached).
        check(message.isRejected, "a line that does not parse was decoded: \(error)")
        return
    }
    // Under a budget the same value, or a refusal that says so.
    do {
        let limited = try JSONParser.parse(line, maximumValueBytes: budget)
        check(limited == value, "the budget changed the value")
    } catch {
        check(error.kind == .tooComplex, "a budget of \(budget) turned a valid line into \(error)")
    }
    do {
        _ = try JSONParser.parse(line, maximumValueBytes: decoder.maximumValueBytes)
        check(message == decoder.decode(value), "decoding the line and decoding its value differ")
    } catch {
        check(error.kind == .tooComplex && message == .rejected(
            .invalidRequest(reason: "tooComplex", limit: decoder.maximumValueBytes)),
            "the decoder's budget was not reported as tooComplex: \(error)")
    }

    // Written and read back, the value is the same (non-finite numbers are written as null, on purpose),
    // and writing it again gives the same bytes.
    let written = JSONWriter.bytes(value)
    let reread: JSONValue
    do {
        reread = try JSONParser.parse(written, maximumDepth: .max)
    } catch {
        fatalError("the writer's output does not parse: \(error): \(String(decoding: written, as: UTF8.self))")
    }
    check(reread == finite(value), "the value changed on the way through the writer: \(value) vs \(reread)")
    check(JSONWriter.bytes(reread) == written, "writing the value again gives other bytes")
}

/// `value` with every non-finite number replaced by `null`, as the writer writes it.
func finite(_ value: JSONValue) -> JSONValue {
    switch value {
    case .number(let number) where !number.isFinite: return .null
    case .array(let elements): return .array(elements.map(finite))
    case .object(let object): return .object(JSONObject(object.map { ($0.key, finite($0.value)) }))
    default: return value
    }
}

extension IncomingMessage {
    var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }
}

/// A finding: libFuzzer saves the input that led here.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}

/// Numbers drawn from the input's own bytes, from its end backwards and round again, so the fuzzer steers
/// the cuts and limits as it mutates the input (and an input cuts itself the same way on every run).
struct InputDraws {
    let bytes: UnsafeRawBufferPointer
    private var drawn = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// A number in `0..<limit`, from the next two bytes.
    mutating func next(below limit: Int) -> Int {
        guard !bytes.isEmpty else { return 0 }
        var value = 0
        for _ in 0..<2 {
            value = value << 8 | Int(bytes[bytes.count - 1 - drawn % bytes.count])
            drawn += 1
        }
        return value % limit
    }
}
