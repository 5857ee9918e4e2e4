extension JSONParser {
    /// A number from `position` (RFC 8259 §6): an integer when it is one that fits in 64 bits, else a
    /// double (exactly, for the common short decimals, without going through text).
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var negative = false
        if buffer[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < count, isDigit(buffer[position]) else { throw error("invalid number") }
        var integral = true
        var overflow = false
        var magnitude: UInt64 = 0
        if buffer[position] == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(buffer[position]) { throw error("leading zero in number") }
        } else {
            _ = readDigits(into: &magnitude, overflow: &overflow)
        }
        var fractionDigits = 0
        if position < count, buffer[position] == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard position < count, isDigit(buffer[position]) else { throw error("invalid fraction") }
            fractionDigits = readDigits(into: &magnitude, overflow: &overflow)
        }
        var sawExponent = false
        if position < count, buffer[position] | 0x20 == UInt8(ascii: "e") {
            integral = false
            sawExponent = true
            position += 1
            if position < count, buffer[position] == UInt8(ascii: "+") || buffer[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < count, isDigit(buffer[position]) else { throw error("invalid exponent") }
            while position < count, isDigit(buffer[position]) { position += 1 }
        }
        if integral && !overflow {
            if negative {
                if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
                if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            } else if magnitude <= UInt64(Int64.max) {
                return .integer(Int64(magnitude))
            }
        }
        // Exact fast path: a significand below 2^53 divided by a power of ten that is itself exact.
        if !overflow, magnitude < 1 << 53, fractionDigits <= 22, !sawExponent {
            let value = Double(magnitude) / Self.powersOfTen[fractionDigits]
            return .number(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(start: buffer + start, count: position - start), as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number", at: start) }
        return .number(value)
    }

    /// Reads the digits from `position` on into `magnitude` (all of them, noting when it overflows), and
    /// returns how many there were.
    @inline(__always) private mutating func readDigits(into magnitude: inout UInt64, overflow: inout Bool) -> Int {
        let first = position
        while position < count, isDigit(buffer[position]) {
            let digit = UInt64(buffer[position] - UInt8(ascii: "0"))
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(digit)
            if o1 || o2 { overflow = true }
            magnitude = sum
            position += 1
        }
        return position - first
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
