import Foundation

/// A document checked against every domain rule before anything of it is written.
struct ImportCheck {
    struct CheckedImage {
        var id: String
        var bytes: [UInt8]
        var format: ImageFormat
        var width: Int
        var height: Int
        var sha256: String
        var createdAt: Int64
    }

    let document: ExchangeDocument
    private(set) var images: [CheckedImage] = []

    static func time(_ text: String?) -> Int64? { text.flatMap(Timestamp.parse) }

    /// The largest vote count a document may carry.
    static let maximumCount: Int64 = 1 << 53

    private static func invalid(_ field: String) -> DomainError {
        .validation(reason: "invalidDocument", field: "document." + field)
    }

    init(_ document: ExchangeDocument) throws(DomainError) {
        self.document = document
        guard document.format == ExchangeDocument.currentFormat else { throw Self.invalid("format") }
        if document.version > ExchangeDocument.currentVersion {
            throw .validation(
                reason: "unsupportedVersion", field: "document.version", limit: Int64(ExchangeDocument.currentVersion))
        }
        guard document.version >= 1 else { throw Self.invalid("version") }

        func unique(_ ids: [String], _ list: String) throws(DomainError) {
            var seen = Set<String>()
            for (index, id) in ids.enumerated() {
                guard !id.isEmpty, seen.insert(id).inserted else { throw Self.invalid("\(list)[\(index)].id") }
            }
        }
        func time(_ text: String?, _ field: String, optional: Bool = false) throws(DomainError) {
            if text == nil && optional { return }
            guard Self.time(text) != nil else { throw Self.invalid(field) }
        }
        /// A domain rule broken inside the document names the document's field.
        func rule(_ field: String, _ body: () throws(DomainError) -> Void) throws(DomainError) {
            do {
                try body()
            } catch {
                if case .validation(let reason, let inner, let limit) = error {
                    throw .validation(reason: reason, field: "document.\(field).\(inner)", limit: limit)
                }
                throw error
            }
        }

        try unique(document.images.map(\.id), "images")
        for (index, image) in document.images.enumerated() {
            guard let data = Data(base64Encoded: image.data) else { throw Self.invalid("images[\(index)].data") }
            let bytes = [UInt8](data)
            guard let (format, width, height) = ImageFormat.inspect(bytes) else {
                throw .validation(reason: "unsupportedImage", field: "document.images[\(index)].data")
            }
            let sha256 = SHA256.hexDigest(bytes)
            guard sha256 == image.sha256 else { throw Self.invalid("images[\(index)].sha256") }
            try time(image.createdAt, "images[\(index)].createdAt")
            images.append(
                CheckedImage(
                    id: image.id, bytes: bytes, format: format, width: width, height: height, sha256: sha256,
                    createdAt: Self.time(image.createdAt)!))
        }
        let imageIDs = Set(document.images.map(\.id))

        try unique(document.notes.map(\.id), "notes")
        for (index, note) in document.notes.enumerated() {
            let field = "notes[\(index)]"
            try rule(field) { () throws(DomainError) in
                try TextRules.checkNote(title: note.title, content: note.content)
                _ = try HSBColor(hue: note.color.hue, saturation: note.color.saturation, brightness: note.color.brightness)
            }
            try time(note.deadline, "\(field).deadline", optional: true)
            try time(note.createdAt, "\(field).createdAt")
            try time(note.updatedAt, "\(field).updatedAt")
            guard (1...Self.maximumCount).contains(note.revision) else { throw Self.invalid("\(field).revision") }
        }

        try unique(document.photos.map(\.id), "photos")
        for (index, photo) in document.photos.enumerated() {
            let field = "photos[\(index)]"
            try rule(field) { () throws(DomainError) in try PhotoNote.checkCaption(photo.caption) }
            guard imageIDs.contains(photo.imageId) else { throw Self.invalid("\(field).imageId") }
            try time(photo.createdAt, "\(field).createdAt")
            try time(photo.updatedAt, "\(field).updatedAt")
            guard (1...Self.maximumCount).contains(photo.revision) else { throw Self.invalid("\(field).revision") }
        }

        try unique(document.reminders.map(\.id), "reminders")
        for (index, reminder) in document.reminders.enumerated() {
            let field = "reminders[\(index)]"
            try rule(field) { () throws(DomainError) in
                try Reminder.check(title: reminder.title, memo: reminder.memo)
                if TextRules.isBlank(reminder.title) { throw .validation(reason: "emptyTitle", field: "title") }
            }
            try time(reminder.completedAt, "\(field).completedAt", optional: true)
            try time(reminder.createdAt, "\(field).createdAt")
            try time(reminder.updatedAt, "\(field).updatedAt")
            guard (1...Self.maximumCount).contains(reminder.revision) else { throw Self.invalid("\(field).revision") }
        }

        try unique(document.diary.map(\.id), "diary")
        for (index, post) in document.diary.enumerated() {
            let field = "diary[\(index)]"
            try rule(field) { () throws(DomainError) in try DiaryPost.check(text: post.text, imageCount: post.imageIds.count) }
            for (slot, imageID) in post.imageIds.enumerated() where !imageIDs.contains(imageID) {
                throw Self.invalid("\(field).imageIds[\(slot)]")
            }
            try time(post.createdAt, "\(field).createdAt")
            try time(post.updatedAt, "\(field).updatedAt")
            guard (1...Self.maximumCount).contains(post.revision) else { throw Self.invalid("\(field).revision") }
        }

        try unique(document.messages.map(\.id), "messages")
        for (index, message) in document.messages.enumerated() {
            let field = "messages[\(index)]"
            try rule(field) { () throws(DomainError) in try Message.check(text: message.text) }
            guard !TextRules.isBlank(message.authorName) else { throw Self.invalid("\(field).authorName") }
            guard Message.Origin(rawValue: message.origin) != nil else { throw Self.invalid("\(field).origin") }
            try time(message.sentAt, "\(field).sentAt")
        }
        var feedKeys = Set<String>()
        for (index, message) in document.messages.enumerated() {
            if let key = message.feedKey, !feedKeys.insert(key).inserted {
                throw Self.invalid("messages[\(index)].feedKey")
            }
        }
        for (index, feed) in document.messageFeeds.enumerated() where feed.consumed < 0 || feed.feed.isEmpty {
            throw Self.invalid("messageFeeds[\(index)]")
        }

        try unique(document.board.map(\.id), "board")
        for (index, post) in document.board.enumerated() {
            let field = "board[\(index)]"
            try rule(field) { () throws(DomainError) in try BoardPost.check(title: post.title) }
            // Counts stay far from overflow (2^53 also keeps them exact as JSON numbers everywhere).
            guard (0...Self.maximumCount).contains(post.ups) else { throw Self.invalid("\(field).ups") }
            guard (0...Self.maximumCount).contains(post.downs) else { throw Self.invalid("\(field).downs") }
            var voters = Set<String>()
            for (number, vote) in post.votes.enumerated()
            where vote.voter.isEmpty || !["up", "down"].contains(vote.direction) || !voters.insert(vote.voter).inserted {
                throw Self.invalid("\(field).votes[\(number)]")
            }
            try time(post.createdAt, "\(field).createdAt")
            try time(post.updatedAt, "\(field).updatedAt")
            guard (1...Self.maximumCount).contains(post.revision) else { throw Self.invalid("\(field).revision") }
        }
    }
}
