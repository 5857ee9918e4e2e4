/// A text cut into the units a merge compares: a word with the spaces after it, one punctuation mark or
/// symbol (with its spaces), one ideograph or kana (languages written without spaces between words), a
/// line break. Each unit is numbered by its text (``TextTokens/Interner``), so the three texts of a merge
/// compare numbers; units are grouped in lines, which are compared first.
struct TextTokens {
    /// Numbers units and lines by their text, the same number for the same text in every text of one merge.
    final class Interner {
        private var units: [Substring: Int] = [:]
        private var lines: [Substring: Int] = [:]

        func unit(_ text: Substring) -> Int {
            if let known = units[text] { return known }
            let made = units.count
            units[text] = made
            return made
        }

        func line(_ text: Substring) -> Int {
            if let known = lines[text] { return known }
            let made = lines.count
            lines[text] = made
            return made
        }
    }

    let text: String
    /// Where each unit starts in `text`; `bounds[count]` is its end.
    private(set) var bounds: [String.Index] = []
    /// Each unit's number.
    private(set) var units: [Int] = []
    /// Where each line starts, in units; `lineStarts[lineCount]` is `units.count`.
    private(set) var lineStarts: [Int] = [0]
    /// Each line's number.
    private(set) var lines: [Int] = []

    init(_ text: String, _ interner: Interner) {
        self.text = text
        var index = text.startIndex
        var lineStart = text.startIndex
        while index < text.endIndex {
            let start = index
            let first = text[index]
            index = text.index(after: index)
            let kind = Self.kind(first)
            switch kind {
            case .lineBreak:
                break
            case .word:
                while index < text.endIndex, Self.kind(text[index]) == .word { index = text.index(after: index) }
                fallthrough
            case .single:
                while index < text.endIndex, Self.kind(text[index]) == .space { index = text.index(after: index) }
            case .space:
                while index < text.endIndex, Self.kind(text[index]) == .space { index = text.index(after: index) }
            }
            bounds.append(start)
            units.append(interner.unit(text[start..<index]))
            if kind == .lineBreak {
                lines.append(interner.line(text[lineStart..<index]))
                lineStarts.append(units.count)
                lineStart = index
            }
        }
        bounds.append(text.endIndex)
        if lineStart < text.endIndex {
            lines.append(interner.line(text[lineStart..<text.endIndex]))
            lineStarts.append(units.count)
        }
    }

    var count: Int { units.count }

    /// The text of units `range`.
    func text(_ range: Range<Int>) -> Substring {
        text[bounds[range.lowerBound]..<bounds[range.upperBound]]
    }

    private enum Kind { case word, space, lineBreak, single }

    private static func kind(_ character: Character) -> Kind {
        if let ascii = character.asciiValue {  // most text: no Unicode property to look up
            switch ascii {
            case 10...13: return .lineBreak  // "\r\n" is one character, whose value is 10
            case 9, 32: return .space
            case 48...57, 65...90, 97...122, 95, 39: return .word
            default: return .single
            }
        }
        if character.isNewline { return .lineBreak }
        if character.isWhitespace { return .space }
        guard let scalar = character.unicodeScalars.first else { return .single }
        let properties = scalar.properties
        // Ideographs and kana are words of their own: Chinese and Japanese put no spaces between words.
        if properties.isIdeographic || (0x3040...0x30FF).contains(scalar.value) || (0x31F0...0x31FF).contains(scalar.value) {
            return .single
        }
        if properties.isAlphabetic || properties.numericType != nil || scalar == "_" || scalar == "'" { return .word }
        return .single
    }
}
