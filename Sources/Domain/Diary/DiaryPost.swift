/// A "Moments" diary post: text of any length and up to four photos, never both missing.
public struct DiaryPost: Sendable, Equatable {
    public var id: String
    public var text: String?
    public var images: [ImageRecord]
    public var createdAt: Int64
    public var updatedAt: Int64
    public var revision: Int64

    public static let maximumImages = 4

    /// The detail screen's photo grid: rows of image indexes.
    public var layout: [[Int]] { DiaryLayout.rows(imageCount: images.count) }

    static func check(text: String?, imageCount: Int) throws(DomainError) {
        if imageCount > maximumImages {
            throw .validation(reason: "tooManyImages", field: "images", limit: Int64(maximumImages))
        }
        if imageCount == 0 && TextRules.isBlank(text ?? "") {
            throw .validation(reason: "emptyPost", field: "text")
        }
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
        var lines = 1
        var characters = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isNewline {
                if lines == maximumLines {
                    // A sixth line begins: cut here, unless nothing but white space follows.
                    let rest = text[text.index(after: index)...]
                    if rest.allSatisfy(\.isWhitespace) { return (text, false) }
                    return (cut(text[..<index]), true)
                }
                lines += 1
            }
            characters += 1
            if characters > maximumCharacters {
                // Keep 599 characters and the ellipsis: at most 600 in all.
                let end = text.index(text.startIndex, offsetBy: maximumCharacters - 1)
                return (cut(text[..<end]), true)
            }
            index = text.index(after: index)
        }
        return (text, false)
    }

    private static func cut(_ kept: Substring) -> String {
        var end = kept.endIndex
        while end > kept.startIndex, kept[kept.index(before: end)].isWhitespace {
            end = kept.index(before: end)
        }
        return String(kept[..<end]) + "…"
    }
}
