import Foundation
import Testing

@testable import Domain

/// The list's text preview (SPEC §7): at most the first 5 lines and at most 600 characters, ending in `…`
/// when anything was cut.
@Suite struct DiaryExcerptTests {
    /// Plain ASCII text and text that is not (the excerpt has a byte-level fast path for ASCII): every rule
    /// about lines and lengths is checked in both.
    enum Script: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case ascii, cyrillic

        var testDescription: String { rawValue }

        var word: String { self == .ascii ? "line" : "строка" }

        var alphabet: [Character] {
            self == .ascii
                ? Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                : Array("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")
        }

        /// `count` lines "line 1", "line 2", ... (or "строка 1", ...) joined by `separator`.
        func lines(_ count: Int, separator: String = "\n") -> String {
            (1...count).map { "\(word) \($0)" }.joined(separator: separator)
        }

        /// `count` letters cycling through the alphabet: any shift of the cut changes the result.
        func letters(_ count: Int) -> String {
            String((0..<count).map { alphabet[$0 % alphabet.count] })
        }
    }

    @Test(arguments: [nil, ""] as [String?])
    func missingOrEmptyTextHasAnEmptyExcerpt(_ text: String?) {
        let result = DiaryExcerpt.make(text)
        #expect(result.excerpt == "")
        #expect(result.truncated == false)
    }

    @Test(arguments: Script.allCases)
    func fiveLinesAreKeptWhole(_ script: Script) {
        let text = script.lines(5)
        let result = DiaryExcerpt.make(text)
        #expect(result.excerpt == text)
        #expect(result.truncated == false)
    }

    @Test(arguments: Script.allCases)
    func fiveLinesWithATrailingLineBreakAreNotTruncated(_ script: Script) {
        for ending in ["\n", "\r\n", "\n  \n\t"] {
            let result = DiaryExcerpt.make(script.lines(5) + ending)
            #expect(result.truncated == false)
            // The trailing white space may be kept or dropped, but nothing else changes and no "…" is added.
            #expect(result.excerpt == script.lines(5) || result.excerpt == script.lines(5) + ending)
        }
    }

    @Test(arguments: Script.allCases)
    func sixLinesKeepTheFirstFiveAndEndInAnEllipsis(_ script: Script) {
        let result = DiaryExcerpt.make(script.lines(6))
        #expect(result.excerpt == script.lines(5) + "…")
        #expect(result.truncated)
    }

    @Test(arguments: Script.allCases)
    func manyLinesKeepTheFirstFive(_ script: Script) {
        let result = DiaryExcerpt.make(script.lines(40))
        #expect(result.excerpt == script.lines(5) + "…")
        #expect(result.truncated)
    }

    @Test(arguments: Script.allCases)
    func emptyLinesCountAsLines(_ script: Script) {
        // Five line breaks make six lines even when some are empty.
        let (a, b, c) = (script.letters(1), script.letters(2), script.letters(3))
        let result = DiaryExcerpt.make("\(a)\n\n\n\n\(b)\n\(c)")
        #expect(result.excerpt == "\(a)\n\n\n\n\(b)…")
        #expect(result.truncated)
    }

    @Test(arguments: Script.allCases)
    func oneLongLineIsCutTo599CharactersAndAnEllipsis(_ script: Script) {
        let text = script.letters(10_000)
        let result = DiaryExcerpt.make(text)
        #expect(result.excerpt == script.letters(599) + "…")
        #expect(result.excerpt.count == 600)
        #expect(result.truncated)
    }

    @Test(arguments: Script.allCases)
    func exactly600CharactersAreKeptWhole(_ script: Script) {
        let text = script.letters(600)
        let result = DiaryExcerpt.make(text)
        #expect(result.excerpt == text)
        #expect(result.truncated == false)
    }

    @Test(arguments: Script.allCases)
    func text601CharactersLongIsCut(_ script: Script) {
        let result = DiaryExcerpt.make(script.letters(601))
        #expect(result.excerpt == script.letters(599) + "…")
        #expect(result.excerpt.count == 600)
        #expect(result.truncated)
    }

    @Test(arguments: Script.allCases)
    func characterLimitCountsLineBreaksAcrossFewLines(_ script: Script) {
        // Three lines of 250 characters: under 5 lines but over 600 characters (line breaks count).
        let line = script.letters(250)
        let text = [line, line, line].joined(separator: "\n")
        let result = DiaryExcerpt.make(text)
        #expect(result.excerpt == String(text.prefix(599)) + "…")
        #expect(result.excerpt.count == 600)
        #expect(result.truncated)
    }

    @Test(arguments: Script.allCases)
    func crlfIsOneLineBreakAndNeverLeavesALoneCarriageReturn(_ script: Script) {
        let five = DiaryExcerpt.make(script.lines(5, separator: "\r\n"))
        #expect(five.excerpt == script.lines(5, separator: "\r\n"))
        #expect(five.truncated == false)

        let six = DiaryExcerpt.make(script.lines(6, separator: "\r\n"))
        #expect(six.excerpt == script.lines(5, separator: "\r\n") + "…")
        #expect(six.truncated)
        let scalars = Array(six.excerpt.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar == "\r" {
            #expect(index + 1 < scalars.count && scalars[index + 1] == "\n", "a lone \\r at scalar \(index)")
        }

        // CRLF as the 599th character, right at the 600-character cut: the pair goes as one.
        let text = script.letters(598) + "\r\n" + script.letters(50)
        let cut = DiaryExcerpt.make(text)
        #expect(cut.truncated)
        #expect(cut.excerpt == script.letters(598) + "…")
        #expect(!cut.excerpt.unicodeScalars.contains("\r"))

        // CRLF as the 600th character: 599 letters kept, no half of the pair.
        let later = DiaryExcerpt.make(script.letters(599) + "\r\n" + script.letters(50))
        #expect(later.excerpt == script.letters(599) + "…")
        #expect(!later.excerpt.unicodeScalars.contains("\r"))
    }

    /// Characters made of several scalars: a ZWJ family, a flag, a rainbow flag, a skin-toned thumb,
    /// combining accents.
    private static let graphemes = [
        "👨‍👩‍👧‍👦", "🇯🇵", "🏳️‍🌈", "👍🏽", "e\u{301}", "a\u{308}\u{323}",
    ]

    @Test(arguments: graphemes)
    func graphemesAtTheCutAreKeptWhole(_ grapheme: String) throws {
        // 598 letters, then ten of the grapheme: the 599th character, the last one kept, is the grapheme.
        let text = String(repeating: "x", count: 598) + String(repeating: grapheme, count: 10)
        #expect(text.count == 608)
        let result = DiaryExcerpt.make(text)
        #expect(result.truncated)
        #expect(result.excerpt.count == 600)
        #expect(result.excerpt.hasSuffix("…"))
        let last = try #require(result.excerpt.dropLast().last)
        #expect(Array(String(last).unicodeScalars) == Array(grapheme.unicodeScalars))
        #expect(
            Array(result.excerpt.unicodeScalars)
                == Array((String(repeating: "x", count: 598) + grapheme + "…").unicodeScalars))

        // The grapheme straddling the cut (599th and 600th characters): the 600th goes whole.
        let straddling = String(repeating: "x", count: 599) + String(repeating: grapheme, count: 5)
        let cut = DiaryExcerpt.make(straddling)
        #expect(cut.excerpt.unicodeScalars.elementsEqual((String(repeating: "x", count: 599) + "…").unicodeScalars))
        #expect(cut.truncated)
    }

    @Test(arguments: graphemes)
    func graphemesCountAsOneCharacterEach(_ grapheme: String) {
        let exactly600 = String(repeating: grapheme, count: 600)
        let whole = DiaryExcerpt.make(exactly600)
        #expect(whole.excerpt.unicodeScalars.elementsEqual(exactly600.unicodeScalars))
        #expect(whole.truncated == false)

        let cut = DiaryExcerpt.make(String(repeating: grapheme, count: 601))
        #expect(cut.truncated)
        #expect(cut.excerpt.unicodeScalars.elementsEqual((String(repeating: grapheme, count: 599) + "…").unicodeScalars))
    }

    @Test(arguments: Script.allCases)
    func whiteSpaceBeforeTheCutIsTrimmed(_ script: Script) {
        // Line cut: the fifth line ends in spaces and a tab.
        let (a, f) = (script.letters(3), script.letters(4))
        let lines = DiaryExcerpt.make("\(a)\n\(a)\n\(a)\n\(a)\n\(a)  \t\n\(f)")
        #expect(lines.excerpt == "\(a)\n\(a)\n\(a)\n\(a)\n\(a)…")
        #expect(lines.truncated)

        // Character cut: the 599 characters kept end in spaces.
        let text = script.letters(590) + String(repeating: " ", count: 20) + "tail"
        let characters = DiaryExcerpt.make(text)
        #expect(characters.excerpt == script.letters(590) + "…")
        #expect(characters.truncated)

        // Character cut just after a line break.
        let afterBreak = DiaryExcerpt.make(script.letters(598) + "\n" + script.letters(10))
        #expect(afterBreak.excerpt == script.letters(598) + "…")
        #expect(afterBreak.truncated)
    }

    @Test(arguments: Script.allCases)
    func excerptIsNeverLongerThan600CharactersOrFiveLines(_ script: Script) {
        let inputs = [
            script.lines(5) + "\n" + String(repeating: " ", count: 1_000),
            script.lines(5) + "\n" + String(repeating: "\n", count: 1_000),
            script.lines(5) + "\r\n" + String(repeating: " \r\n\t", count: 300),
            script.letters(10_000),
            script.lines(1_000),
            String(repeating: script.letters(1) + "\n", count: 4) + script.letters(2_000),
        ]
        for text in inputs {
            let result = DiaryExcerpt.make(text)
            #expect(result.excerpt.count <= 600, "\(text.count)-character input gave \(result.excerpt.count)")
            let breaks = result.excerpt.filter(\.isNewline).count
            let trailingBreaks = result.excerpt.reversed().prefix(while: \.isWhitespace).filter(\.isNewline).count
            #expect(breaks - trailingBreaks <= 4, "more than five lines kept from a \(text.count)-character input")
        }
    }

    @Test func aCutAfterASentenceEndsInOneEllipsisNotFourDots() {
        let six = "Milk.\nBread.\nEggs.\nButter.\nTea.\nJam."
        #expect(DiaryExcerpt.make(six).excerpt == "Milk.\nBread.\nEggs.\nButter.\nTea…")
        let dotted = "Wait...\n2\n3\n4\nand so on...\nmore"
        #expect(DiaryExcerpt.make(dotted).excerpt == "Wait...\n2\n3\n4\nand so on…")
        let ellipsis = "a\nb\nc\nd\nthen…\nmore"
        #expect(DiaryExcerpt.make(ellipsis).excerpt == "a\nb\nc\nd\nthen…")
        let russian = "Чай.\nХлеб.\nМолоко.\nСыр.\nМёд.\nЕщё"
        #expect(DiaryExcerpt.make(russian).excerpt == "Чай.\nХлеб.\nМолоко.\nСыр.\nМёд…")
    }
}
