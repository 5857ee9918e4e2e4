#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Imaging

/// The rules an imported document must keep, element by element (a failed check stops the import, whose
/// transaction then rolls back: nothing of the document is kept).
enum ImportCheck {
    struct CheckedImage {
        var id: String
        var bytes: [UInt8]
        var format: ImageFormat
        var width: Int
        var height: Int
        var sha256: String
        var createdAt: Int64
        /// What the check's decode made at once (the thumbnail, at least), kept with the image.
        var renditions: [Rendition]
    }

    static func time(_ text: String?) -> Int64? { text.flatMap(Timestamp.parse) }

    /// The largest vote count a document may carry.
    static let maximumCount: Int64 = 1 << 53

    private static func invalid(_ field: String) -> DomainError {
        .validation(reason: .invalidDocument, field: "document." + field)
    }

    /// The document's `format` and `version`, checked before anything else of it.
    static func header(format: String, version: Int) throws(DomainError) {
        guard format == ExchangeDocument.currentFormat else {
            throw .validation(reason: .notAnExport, field: "document.format")
        }
        if version > ExchangeDocument.currentVersion {
            throw .validation(
                reason: .unsupportedVersion, field: "document.version", limit: Int64(ExchangeDocument.currentVersion))
        }
        guard version >= 1 else { throw invalid("version") }
    }

    private static func time(_ text: String?, _ field: String, optional: Bool = false) throws(DomainError) {
        if text == nil && optional { return }
        guard time(text) != nil else { throw invalid(field) }
    }

    private static func revision(_ value: Int64, _ field: String) throws(DomainError) {
        guard (1...maximumCount).contains(value) else { throw invalid("\(field).revision") }
    }

    /// A domain rule broken inside the document names the document's field.
    private static func rule(_ field: String, _ body: () throws(DomainError) -> Void) throws(DomainError) {
        do {
            try body()
        } catch {
            if case .validation(let reason, let inner, let limit) = error {
                throw .validation(reason: reason, field: "document.\(field).\(inner)", limit: limit)
            }
            throw error
        }
    }

    // Each element is checked on its own as it is read; what spans elements (ids unique within a list,
    // references to the document's images) is checked by the import as it applies them.

    /// An image is checked as `photos.add` checks one (``ImageStore/prepare(bytes:maximumBytes:)``): within
    /// the size limit, a format it reads, decoded whole within the pixel limits.
    static func image(_ image: ExchangeDocument.Image, at index: Int, maximumBytes: Int) throws(DomainError) -> CheckedImage {
        guard EntityID.isValid(image.id, kind: "img") else { throw invalid("images[\(index)].id") }
        guard let data = Data(base64Encoded: image.data) else { throw invalid("images[\(index)].data") }
        let bytes = [UInt8](data)
        guard SHA256.hexDigest(bytes) == image.sha256 else { throw invalid("images[\(index)].sha256") }
        try time(image.createdAt, "images[\(index)].createdAt")
        let prepared: PreparedImage
        do {
            prepared = try ImageStore.prepare(bytes: bytes, maximumBytes: maximumBytes)
        } catch {
            if case .validation(let reason, _, let limit) = error {
                throw .validation(reason: reason, field: "document.images[\(index)].data", limit: limit)
            }
            throw error
        }
        guard case .new(_, let format, let width, let height, let sha256, let renditions) = prepared else {
            throw invalid("images[\(index)].data")
        }
        return CheckedImage(
            id: image.id, bytes: bytes, format: format, width: width, height: height, sha256: sha256,
            createdAt: time(image.createdAt)!, renditions: renditions)
    }

    static func note(_ note: ExchangeDocument.Note, at index: Int) throws(DomainError) {
        let field = "notes[\(index)]"
        guard EntityID.isValid(note.id, kind: "note") else { throw invalid("\(field).id") }
        try rule(field) { () throws(DomainError) in
            try TextRules.checkNote(title: note.title, content: note.content)
            _ = try HSBColor(hue: note.color.hue, saturation: note.color.saturation, brightness: note.color.brightness)
        }
        try time(note.deadline, "\(field).deadline", optional: true)
        try time(note.createdAt, "\(field).createdAt")
        try time(note.updatedAt, "\(field).updatedAt")
        try revision(note.revision, field)
    }

    static func photo(_ photo: ExchangeDocument.Photo, at index: Int, imageKnown: Bool) throws(DomainError) {
        let field = "photos[\(index)]"
        guard EntityID.isValid(photo.id, kind: "photo") else { throw invalid("\(field).id") }
        try rule(field) { () throws(DomainError) in try PhotoNote.checkCaption(photo.caption) }
        guard imageKnown else { throw invalid("\(field).imageId") }
        try time(photo.createdAt, "\(field).createdAt")
        try time(photo.updatedAt, "\(field).updatedAt")
        try revision(photo.revision, field)
    }

    static func reminder(_ reminder: ExchangeDocument.Reminder, at index: Int) throws(DomainError) {
        let field = "reminders[\(index)]"
        guard EntityID.isValid(reminder.id, kind: "rem") else { throw invalid("\(field).id") }
        try rule(field) { () throws(DomainError) in
            try Reminder.check(title: reminder.title, memo: reminder.memo)
            if TextRules.isBlank(reminder.title) { throw .validation(reason: .emptyTitle, field: "title") }
        }
        try time(reminder.completedAt, "\(field).completedAt", optional: true)
        try time(reminder.createdAt, "\(field).createdAt")
        try time(reminder.updatedAt, "\(field).updatedAt")
        try revision(reminder.revision, field)
    }

    static func post(_ post: ExchangeDocument.Post, at index: Int, imageKnown: (String) -> Bool) throws(DomainError) {
        let field = "diary[\(index)]"
        guard EntityID.isValid(post.id, kind: "post") else { throw invalid("\(field).id") }
        try rule(field) { () throws(DomainError) in try DiaryPost.check(text: post.text, imageCount: post.imageIds.count) }
        for (slot, imageID) in post.imageIds.enumerated() where !imageKnown(imageID) {
            throw invalid("\(field).imageIds[\(slot)]")
        }
        try time(post.createdAt, "\(field).createdAt")
        try time(post.updatedAt, "\(field).updatedAt")
        try revision(post.revision, field)
    }

    static func message(_ message: ExchangeDocument.Message, at index: Int) throws(DomainError) {
        let field = "messages[\(index)]"
        guard EntityID.isValid(message.id, kind: "msg") else { throw invalid("\(field).id") }
        try rule(field) { () throws(DomainError) in try Message.check(text: message.text) }
        try rule(field) { () throws(DomainError) in try Author.check(name: message.authorName, field: "authorName") }
        guard Message.Origin(rawValue: message.origin) != nil else { throw invalid("\(field).origin") }
        try time(message.sentAt, "\(field).sentAt")
    }

    static func feed(_ feed: ExchangeDocument.Feed, at index: Int) throws(DomainError) {
        guard feed.consumed >= 0, !feed.feed.isEmpty else { throw invalid("messageFeeds[\(index)]") }
    }

    static func board(_ post: ExchangeDocument.BoardPost, at index: Int) throws(DomainError) {
        let field = "board[\(index)]"
        guard EntityID.isValid(post.id, kind: "bp") else { throw invalid("\(field).id") }
        try rule(field) { () throws(DomainError) in try BoardPost.check(title: post.title) }
        // Counts stay far from overflow (2^53 also keeps them exact as JSON numbers everywhere).
        guard (0...maximumCount).contains(post.ups) else { throw invalid("\(field).ups") }
        guard (0...maximumCount).contains(post.downs) else { throw invalid("\(field).downs") }
        var voters = Set<String>()
        for (number, vote) in post.votes.enumerated()
        where vote.voter.isEmpty || !["up", "down"].contains(vote.direction) || !voters.insert(vote.voter).inserted {
            throw invalid("\(field).votes[\(number)]")
        }
        try time(post.createdAt, "\(field).createdAt")
        try time(post.updatedAt, "\(field).updatedAt")
        try revision(post.revision, field)
    }
}
