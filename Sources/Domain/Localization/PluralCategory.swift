/// Which form of a noun a number takes in a language: CLDR's cardinal plural categories
/// (https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html).
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other
}

extension Language {
    /// The categories this language's numbers fall into: a plural message gives a form for each of them.
    public var pluralCategories: Set<PluralCategory> {
        switch self {
        case .english: [.one, .other]
        case .russian: [.one, .few, .many, .other]
        case .japanese: [.other]
        }
    }

    /// The category of `number`, written as messages carry it (`"21"`, `"-3"`, `"1.5"`), by CLDR's rules:
    ///
    /// - English: `one` for 1; `other` for everything else.
    /// - Russian: `one` when it ends in 1 but not 11 (1, 21, 101); `few` when it ends in 2–4 but not 12–14
    ///   (2, 22, 104); `many` for the rest of the whole numbers (0, 5–20, 25, 111); `other` with a fraction.
    /// - Japanese: always `other`.
    ///
    /// A number written with a fraction (even `1.0`) is `other`, as CLDR has it for English and Russian;
    /// so is text that is no number.
    public func pluralCategory(of number: String) -> PluralCategory {
        let digits = number.hasPrefix("-") ? number.dropFirst() : number[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .other }
        // The last two digits decide, however long the number.
        let lastTwo = Int(String(digits.suffix(2)))!
        let lastOne = lastTwo % 10
        switch self {
        case .english:
            return digits.drop(while: { $0 == "0" }) == "1" ? .one : .other
        case .russian:
            if lastOne == 1 && lastTwo != 11 { return .one }
            if (2...4).contains(lastOne) && !(12...14).contains(lastTwo) { return .few }
            return .many
        case .japanese:
            return .other
        }
    }
}
