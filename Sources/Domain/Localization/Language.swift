/// A language the server speaks in error messages and formatted text.
public enum Language: String, Sendable, CaseIterable, Codable {
    case english = "en"
    case russian = "ru"
    case japanese = "ja"

    /// The language for a tag such as `"ru"` or `"ja-JP"`; `nil` when it is not one of ours.
    public init?(tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? tag
        self.init(rawValue: primary.lowercased())
    }
}
