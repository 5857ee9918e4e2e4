import Testing

@testable import Domain

/// What counts as blank (an empty note is refused, an untitled reminder is removed): nothing but Unicode
/// white space. ASCII is decided byte by byte, anything else by the Unicode properties.
@Suite struct TextRulesTests {
    @Test(arguments: ["", " ", "\t\n\r", "\u{0B}\u{0C}", " \u{3000} ", "\u{00A0}", "\u{0085}", "  \u{2003}\t"])
    func blank(text: String) {
        #expect(TextRules.isBlank(text))
    }

    @Test(arguments: ["a", " a", "\t.\t", "\u{3000}x", "x\u{3000}", "\u{00A0}é", "日本", "\u{200B}", "_"])
    func notBlank(text: String) {
        #expect(!TextRules.isBlank(text))
    }
}
