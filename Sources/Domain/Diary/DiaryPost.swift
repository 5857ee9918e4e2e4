/// A "Moments" diary post: text of up to 100,000 characters and up to four photos, never both missing.
public struct DiaryPost: Sendable, Equatable {
    public var id: String
    public var text: String?
    public var images: [ImageRecord]
    public var createdAt: Int64
    public var updatedAt: Int64
    public var revision: Int64

    public static let maximumImages = 4
    /// The longest text, in characters.
    public static let maximumTextLength = 100_000

    /// The detail screen's photo grid: rows of image indexes.
    public var layout: [[Int]] { DiaryLayout.rows(imageCount: images.count) }

    static func check(text: String?, imageCount: Int) throws(DomainError) {
        if imageCount > maximumImages {
            throw .validation(reason: .tooManyImages, field: "images", limit: Int64(maximumImages))
        }
        if imageCount == 0 && TextRules.isBlank(text ?? "") {
            throw .validation(reason: .emptyPost, field: "text")
        }
        if let text { try TextRules.check(text, field: "text", characters: maximumTextLength, reason: .contentTooLong) }
    }
}

/// A post as the list shows it: the date, the start of the text, and the first two photos.
public struct DiaryPreview: Sendable, Equatable {
    public var id: String
    public var createdAt: Int64
    public var excerpt: String
    public var truncated: Bool
    public var thumbnails: [ImageRecord]
    public var imageCount: Int
}

/// The detail screen's grid: one photo alone, two side by side, three as two over one, four as two by two.
public enum DiaryLayout {
    public static func rows(imageCount: Int) -> [[Int]] {
        switch imageCount {
        case 0: return []
        case 1: return [[0]]
        case 2: return [[0, 1]]
        case 3: return [[0, 1], [2]]
        default: return [[0, 1], [2, 3]]
        }
    }
}

/// The list's text preview: at most the first five lines and at most 600 characters, ending in `…` when
/// anything was cut.
public enum DiaryExcerpt {
    public static let maximumLines = 5
    public static let maximumCharacters = 600

    /// The excerpt of `text` and whether anything was cut. Counts characters (grapheme clusters), so an
    /// emoji or a letter with combining marks is never split; `\r\n` is one line break.
    public static func make(_ text: String?) -> (excerpt: String, truncated: Bool) {
        guard let text, !text.isEmpty else { return ("", false) }
        return asciiExcerpt(text) ?? graphemeExcerpt(text)
    }

    /// The same rule over bytes, for text whose beginning is plain ASCII (where a byte is a character,
    /// but for `\r\n`); `nil` as soon as a non-ASCII byte comes before the cut.
    private static func asciiExcerpt(_ text: String) -> (excerpt: String, truncated: Bool)? {
        enum Outcome {
            /// Nothing to cut; cut (with `…`) at a byte offset; only white space after five lines (dropped,
            /// no `…`); or not plain ASCII after all.
            case whole, cut(Int), blankRest(Int), notASCII
        }
        let scan: (UnsafeBufferPointer<UInt8>) -> Outcome = { bytes in
            var lines = 1
            var characters = 0
            var keepEnd = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte < 0x80 else { return .notASCII }
                var next = index + 1
                if byte == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
                if byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
                    if lines == maximumLines {
                        // A sixth line begins: cut here, unless nothing but white space follows.
                        let rest = UnsafeBufferPointer(rebasing: bytes[next...])
                        if rest.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) }) { return .blankRest(index) }
                        if rest.contains(where: { $0 >= 0x80 }) { return .notASCII }
                        return .cut(index)
                    }
                    lines += 1
                }
                characters += 1
                if characters == maximumCharacters - 1 { keepEnd = next }
                if characters > maximumCharacters { return .cut(keepEnd) }
                index = next
            }
            return .whole
        }
        let outcome = text.utf8.withContiguousStorageIfAvailable(scan) ?? { var copy = text; return copy.withUTF8(scan) }()
        switch outcome {
        case .whole: return (text, false)
        case .notASCII: return nil
        case .cut(let offset): return (cut(text[..<text.utf8.index(text.utf8.startIndex, offsetBy: offset)]), true)
        case .blankRest(let offset): return (String(text[..<text.utf8.index(text.utf8.startIndex, offsetBy: offset)]), false)
        }
    }

    private static func graphemeExcerpt(_ text: String) -> (excerpt: String, truncated: Bool) {
        var lines = 1
        var characters = 0
        var keepEnd = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index].isNewline {
                if lines == maximumLines {
                    // Only white space after five lines: nothing worth an ellipsis is cut.
                    if text[next...].allSatisfy(\.isWhitespace) { return (String(text[..<index]), false) }
                    return (cut(text[..<index]), true)
                }
                lines += 1
            }
            characters += 1
            if characters == maximumCharacters - 1 { keepEnd = next }
            if characters > maximumCharacters { return (cut(text[..<keepEnd]), true) }
            index = next
        }
        return (text, false)
    }

    /// `kept` with `…` for what follows: trailing white space and dots go first, so a cut after "Tea."
    /// reads "Tea…", not "Tea.…".
    private static func cut(_ kept: Substring) -> String {
        var end = kept.endIndex
        while end > kept.startIndex, kept[kept.index(before: end)].isWhitespace || kept[kept.index(before: end)] == "."
            || kept[kept.index(before: end)] == "…"
        {
            end = kept.index(before: end)
        }
        return String(kept[..<end]) + "…"
    }
}
