/// A photo note of ENotes: an image with an optional caption, in its own user-ordered list.
public struct PhotoNote: Sendable, Equatable {
    public var id: String
    public var image: ImageRecord
    public var caption: String?
    public var createdAt: Int64
    public var updatedAt: Int64
    public var revision: Int64

    /// The longest caption, in characters.
    public static let maximumCaptionLength = 1000

    static func checkCaption(_ caption: String?) throws(DomainError) {
        if let caption {
            try TextRules.check(caption, field: "caption", characters: maximumCaptionLength, reason: .captionTooLong)
        }
    }
}
