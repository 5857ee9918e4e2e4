/// What a text was before a change, said against the text after it, so a row of the shared log can carry
/// the base a merge needs in a few bytes: `[[start, length, "was"], …]`, each replacing `length` Unicode
/// scalars of the text after, from `start`, with what was there; ascending, never overlapping.
struct TextPatch: Codable, Equatable, Sendable {
    struct Hunk: Codable, Equatable, Sendable {
        var start: Int
        var length: Int
        var text: String

        init(start: Int, length: Int, text: String) {
            (self.start, self.length, self.text) = (start, length, text)
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            start = try container.decode(Int.self)
            length = try container.decode(Int.self)
            text = try container.decode(String.self)
            guard container.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a hunk is [start, length, text]")
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(start)
            try container.encode(length)
            try container.encode(text)
        }
    }

    var hunks: [Hunk]

    init(hunks: [Hunk]) { self.hunks = hunks }

    init(from decoder: any Decoder) throws { hunks = try [Hunk](from: decoder) }

    func encode(to encoder: any Encoder) throws { try hunks.encode(to: encoder) }

    /// The patch that turns `new` back into `old`.
    static func undoing(_ new: String, back old: String) -> TextPatch {
        let interner = TextTokens.Interner()
        let oldTokens = TextTokens(old, interner)
        let newTokens = TextTokens(new, interner)
        var hunks: [Hunk] = []
        var unit = 0, scalar = 0
        for change in TextDiff.hunks(from: oldTokens, to: newTokens) {
            scalar += newTokens.text(unit..<change.with.lowerBound).unicodeScalars.count
            let length = newTokens.text(change.with).unicodeScalars.count
            hunks.append(Hunk(start: scalar, length: length, text: String(oldTokens.text(change.start..<change.end))))
            scalar += length
            unit = change.with.upperBound
        }
        return TextPatch(hunks: hunks)
    }

    /// `new` as it was: `nil` when the patch does not fit it (out of order, past its end).
    func apply(to new: String) -> String? {
        let scalars = Array(new.unicodeScalars)
        var old = String.UnicodeScalarView()
        var at = 0
        for hunk in hunks {
            guard hunk.start >= at, hunk.length >= 0, hunk.length <= scalars.count - hunk.start else { return nil }
            old.append(contentsOf: scalars[at..<hunk.start])
            old.append(contentsOf: hunk.text.unicodeScalars)
            at = hunk.start + hunk.length
        }
        old.append(contentsOf: scalars[at...])
        return String(old)
    }

    /// Its size in the log, about: what it says the text was, and a few bytes a hunk.
    var bytes: Int { hunks.reduce(0) { $0 + $1.text.utf8.count + 24 } }
}
