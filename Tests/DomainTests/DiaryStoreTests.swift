import Foundation
import Testing

@testable import Domain

/// The "Moments" diary store (SPEC §6, §7): validation, image ownership, updates, deletes, the photo grid
/// layout and the newest-first list of previews.
@Suite struct DiaryStoreTests {
    // MARK: Helpers

    /// Five real fixture images with distinct contents (and distinct sizes), so each is its own stored image.
    private static let distinctFixtures = [
        "sample.png", "sample-baseline.jpg", "sample.gif", "sample-lossy.webp", "sample.heic",
    ]

    private static func makeStore(clock: ManualClock = ManualClock()) throws -> DataStore {
        try DomainTestSupport.openStore(clock: clock)
    }

    /// The fixture as base64 input, with no claimed type.
    private static func base64(_ name: String) throws -> ImageInput {
        .data(base64: Data(try ImageFixture.bytes(name)).base64EncodedString(), claimedMimeType: nil)
    }

    /// The fixture as an absolute path input.
    private static func path(_ name: String) -> ImageInput {
        .path(ImageFixture.path(name))
    }

    private static func fixture(_ name: String) throws -> ImageFixture {
        try #require(ImageFixture.images.first { $0.name == name }, "unknown fixture \(name)")
    }

    private static func sha256(_ name: String) throws -> String {
        SHA256.hexDigest(try ImageFixture.bytes(name))
    }

    /// Every preview, newest first, read page by page with `limit`.
    private static func allPreviews(_ store: DataStore, limit: Int) throws -> [DiaryPreview] {
        var previews: [DiaryPreview] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try store.diary.list(PageRequest(limit: limit, cursor: cursor))
            #expect(page.items.count <= limit)
            previews += page.items
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 1_000
        #expect(cursor == nil, "the walk never ended")
        return previews
    }

    // MARK: Validation

    @Test func postWithoutTextAndImagesIsEmptyPost() throws {
        let store = try Self.makeStore()
        #expect(throws: DomainError.validation(reason: .emptyPost, field: "text")) {
            try store.diary.create(text: nil, images: [])
        }
        #expect(throws: DomainError.validation(reason: .emptyPost, field: "text")) {
            try store.diary.create(text: "", images: [])
        }
        #expect(try store.diary.count() == 0)
    }

    @Test(arguments: [" ", "\n", "   \n\t  \r\n ", "\u{3000}\u{00A0}"])
    func blankTextWithoutImagesIsEmptyPost(_ text: String) throws {
        let store = try Self.makeStore()
        #expect(throws: DomainError.validation(reason: .emptyPost, field: "text")) {
            try store.diary.create(text: text, images: [])
        }
        #expect(try store.diary.count() == 0)
    }

    @Test func imagesWithoutTextMakeAPost() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: nil, images: [try Self.base64("sample.png")])
        #expect(post.text == nil)
        #expect(post.images.count == 1)
        #expect(post.revision == 1)
        #expect(try store.diary.get(id: post.id) == post)
    }

    @Test func blankTextWithAnImageMakesAPost() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: "  \n ", images: [try Self.base64("sample.png")])
        #expect(post.images.count == 1)
        #expect(try store.diary.get(id: post.id) == post)
    }

    @Test func textWithoutImagesMakesAPost() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: "Сегодня был хороший день", images: [])
        #expect(post.text == "Сегодня был хороший день")
        #expect(post.images.isEmpty)
        #expect(try store.diary.get(id: post.id) == post)
        #expect(try store.images.count() == 0)
    }

    @Test func fourImagesAreAllowed() throws {
        let store = try Self.makeStore()
        let inputs = try Self.distinctFixtures.prefix(4).map { try Self.base64($0) }
        let post = try store.diary.create(text: "four", images: inputs)
        #expect(post.images.count == 4)
        #expect(try store.diary.get(id: post.id).images.count == 4)
        #expect(try store.images.count() == 4)
    }

    @Test func fiveImagesAreTooManyAndNothingIsStored() throws {
        let store = try Self.makeStore()
        // One image already stored (by a photo note), so "unchanged" is not just "zero".
        _ = try store.photos.add(image: try Self.base64("sample-alpha.webp"), caption: nil)
        let imagesBefore = try store.images.count()
        let inputs = try Self.distinctFixtures.map { try Self.base64($0) }
        #expect(inputs.count == 5)
        #expect(throws: DomainError.validation(reason: .tooManyImages, field: "images", limit: 4)) {
            try store.diary.create(text: "five", images: inputs)
        }
        #expect(try store.diary.count() == 0)
        #expect(try store.images.count() == imagesBefore)
    }

    @Test func veryLongTextIsReturnedIntact() throws {
        let store = try Self.makeStore()
        // The longest text: 100,000 characters, each "é" of them two scalars and three bytes.
        var text = String(repeating: DomainTestSupport.combiningE, count: 99_993)
        text += "\nend\r\nЁ\n"
        #expect(text.count == DiaryPost.maximumTextLength)
        let post = try store.diary.create(text: text, images: [])
        #expect(post.text == text)
        let fetched = try #require(try store.diary.get(id: post.id).text)
        #expect(fetched.count == 100_000)
        #expect(Array(fetched.utf8) == Array(text.utf8))
    }

    // MARK: Images

    @Test func imagesKeepTheirOrder() throws {
        let store = try Self.makeStore()
        let names = Array(Self.distinctFixtures.prefix(4))
        let post = try store.diary.create(text: nil, images: try names.map { try Self.base64($0) })
        let expected = try names.map { try Self.sha256($0) }
        #expect(post.images.map(\.sha256) == expected)
        #expect(try store.diary.get(id: post.id).images.map(\.sha256) == expected)
        for (record, name) in zip(post.images, names) {
            let fixture = try Self.fixture(name)
            #expect(record.mimeType == fixture.mimeType, "\(name)")
            #expect(record.width == fixture.width, "\(name)")
            #expect(record.height == fixture.height, "\(name)")
        }
        // The same images in the opposite order: the slots, not the images' ids or ages, give the order.
        let reversed = try store.diary.create(text: nil, images: try names.reversed().map { try Self.base64($0) })
        #expect(reversed.images.map(\.sha256) == expected.reversed())
        #expect(try store.diary.get(id: reversed.id).images.map(\.sha256) == expected.reversed())
        #expect(try store.diary.get(id: reversed.id).images.map(\.id) == post.images.map(\.id).reversed())
    }

    @Test func pathAndBase64InputsAreAccepted() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(
            text: "mixed", images: [Self.path("sample-progressive.jpg"), try Self.base64("sample.gif")])
        #expect(post.images.count == 2)
        for (record, name) in zip(post.images, ["sample-progressive.jpg", "sample.gif"]) {
            let fixture = try Self.fixture(name)
            let bytes = try ImageFixture.bytes(name)
            #expect(record.mimeType == fixture.mimeType)
            #expect(record.width == fixture.width)
            #expect(record.height == fixture.height)
            #expect(record.byteSize == bytes.count)
            #expect(record.sha256 == SHA256.hexDigest(bytes))
            let (stored, data) = try store.images.data(id: record.id)
            #expect(stored == record)
            #expect(data == bytes)
        }
    }

    @Test func imageSharedWithAPhotoNoteOutlivesTheDeletedPost() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: "shared", images: [try Self.base64("sample.png")])
        let photo = try store.photos.add(image: Self.path("sample.png"), caption: "same picture")
        #expect(photo.image.id == post.images[0].id)
        #expect(try store.images.count() == 1)

        try store.diary.delete(id: post.id)
        #expect(try store.images.get(id: photo.image.id) == photo.image)
        #expect(try store.photos.get(id: photo.id).image == photo.image)

        try store.photos.delete(id: photo.id)
        #expect(throws: DomainError.notFound(kind: "image", id: photo.image.id)) {
            try store.images.get(id: photo.image.id)
        }
        #expect(try store.images.count() == 0)
    }

    @Test func imageSharedWithAPostOutlivesTheDeletedPhotoNote() throws {
        let store = try Self.makeStore()
        let photo = try store.photos.add(image: try Self.base64("sample-lossy.webp"), caption: nil)
        let post = try store.diary.create(
            text: nil, images: [try Self.base64("sample.png"), Self.path("sample-lossy.webp")])
        #expect(post.images[1].id == photo.image.id)

        try store.photos.delete(id: photo.id)
        #expect(try store.images.get(id: photo.image.id) == photo.image)
        #expect(try store.diary.get(id: post.id).images == post.images)

        try store.diary.delete(id: post.id)
        for image in post.images {
            #expect(throws: DomainError.notFound(kind: "image", id: image.id)) {
                try store.images.get(id: image.id)
            }
        }
    }

    @Test func deletingTheLastOwnerRemovesTheImages() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(
            text: nil, images: try Self.distinctFixtures.prefix(3).map { try Self.base64($0) })
        #expect(try store.images.count() == 3)
        try store.diary.delete(id: post.id)
        for image in post.images {
            #expect(throws: DomainError.notFound(kind: "image", id: image.id)) {
                try store.images.get(id: image.id)
            }
        }
        #expect(try store.images.count() == 0)
    }

    @Test func sameImageTwiceInOnePostIsCountedTwice() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(
            text: nil, images: [try Self.base64("sample.png"), Self.path("sample.png")])
        #expect(post.images.count == 2)
        #expect(post.images[0] == post.images[1])
        #expect(try store.images.count() == 1)
        #expect(try store.diary.get(id: post.id).images == post.images)

        // Dropping one of the two slots still leaves one hold: the image must survive.
        let edited = try store.diary.update(id: post.id, text: nil, images: [.reuse(id: post.images[0].id)])
        #expect(edited.images == [post.images[0]])
        #expect(try store.images.get(id: post.images[0].id) == post.images[0])

        // Two slots again, then the post goes: both holds are released and the image with them.
        _ = try store.diary.update(
            id: post.id, text: nil, images: [.reuse(id: post.images[0].id), try Self.base64("sample.png")])
        #expect(try store.diary.get(id: post.id).images == post.images)
        try store.diary.delete(id: post.id)
        #expect(throws: DomainError.notFound(kind: "image", id: post.images[0].id)) {
            try store.images.get(id: post.images[0].id)
        }
        #expect(try store.images.count() == 0)
    }

    @Test func unsupportedImageInSlotTwoIsRejectedAndNothingIsStored() throws {
        let store = try Self.makeStore()
        let kept = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        let imagesBefore = try store.images.count()
        let badInputs: [ImageInput] = [
            .data(base64: Data(try ImageFixture.bytes(ImageFixture.notAnImage)).base64EncodedString(),
                claimedMimeType: "image/png"),
            .path(ImageFixture.path(ImageFixture.notAnImage)),
        ]
        for bad in badInputs {
            let inputs = [try Self.base64("sample.gif"), try Self.base64("sample-baseline.jpg"), bad]
            #expect(throws: DomainError.validation(reason: .unsupportedImage, field: "images[2]")) {
                try store.diary.create(text: "has a bad image", images: inputs)
            }
        }
        #expect(try store.diary.count() == 0)
        #expect(try store.images.count() == imagesBefore)
        #expect(try store.images.get(id: kept.image.id) == kept.image)
    }

    // MARK: Update

    @Test func updateKeepsCreatedAtAndBumpsRevision() throws {
        let clock = ManualClock()
        let store = try Self.makeStore(clock: clock)
        let created = try store.diary.create(text: "first", images: [])
        clock.advance(by: 90_000)
        let updated = try store.diary.update(id: created.id, text: "second", images: nil)
        #expect(updated.text == "second")
        #expect(updated.createdAt == created.createdAt)
        #expect(updated.updatedAt == created.createdAt + 90_000)
        #expect(updated.revision == 2)
        #expect(try store.diary.get(id: created.id) == updated)

        clock.advance(by: 1_000)
        let again = try store.diary.update(id: created.id, text: nil, images: [try Self.base64("sample.png")])
        #expect(again.text == "second")
        #expect(again.createdAt == created.createdAt)
        #expect(again.updatedAt == created.createdAt + 91_000)
        #expect(again.revision == 3)
        #expect(try store.diary.get(id: created.id) == again)
    }

    @Test func removingTheTextKeepsAPostThatHasImages() throws {
        let store = try Self.makeStore()
        let created = try store.diary.create(text: "caption", images: [try Self.base64("sample.png")])
        let updated = try store.diary.update(id: created.id, text: .some(nil), images: nil)
        #expect(updated.text == nil)
        #expect(updated.images == created.images)
        #expect(updated.revision == 2)
        let fetched = try store.diary.get(id: created.id)
        #expect(fetched.text == nil)
        #expect(fetched.images == created.images)
    }

    @Test func updateThatWouldEmptyThePostIsEmptyPostAndChangesNothing() throws {
        let store = try Self.makeStore()
        let textOnly = try store.diary.create(text: "only words", images: [])
        #expect(throws: DomainError.validation(reason: .emptyPost, field: "text")) {
            try store.diary.update(id: textOnly.id, text: .some(nil), images: nil)
        }
        #expect(throws: DomainError.validation(reason: .emptyPost, field: "text")) {
            try store.diary.update(id: textOnly.id, text: " \n ", images: nil)
        }
        #expect(try store.diary.get(id: textOnly.id) == textOnly)

        let imageOnly = try store.diary.create(text: nil, images: [try Self.base64("sample.png")])
        #expect(throws: DomainError.validation(reason: .emptyPost, field: "text")) {
            try store.diary.update(id: imageOnly.id, text: nil, images: [])
        }
        #expect(try store.diary.get(id: imageOnly.id) == imageOnly)
        #expect(try store.images.get(id: imageOnly.images[0].id) == imageOnly.images[0])
    }

    @Test func updateWithFiveImagesIsTooManyAndChangesNothing() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: "one", images: [try Self.base64("sample-alpha.webp")])
        let imagesBefore = try store.images.count()
        let inputs = try Self.distinctFixtures.map { try Self.base64($0) }
        #expect(throws: DomainError.validation(reason: .tooManyImages, field: "images", limit: 4)) {
            try store.diary.update(id: post.id, text: "two", images: inputs)
        }
        #expect(try store.diary.get(id: post.id) == post)
        #expect(try store.images.count() == imagesBefore)
    }

    @Test func replacingImagesKeepsAnImageThatStays() throws {
        let store = try Self.makeStore()
        let names = ["sample.png", "sample-baseline.jpg", "sample.gif"]
        let post = try store.diary.create(text: nil, images: try names.map { try Self.base64($0) })
        let (first, second, third) = (post.images[0], post.images[1], post.images[2])

        // The third image sent again by content, plus a new one.
        let updated = try store.diary.update(
            id: post.id, text: nil, images: [Self.path("sample.gif"), try Self.base64("sample-lossy.webp")])
        #expect(updated.images.count == 2)
        #expect(updated.images[0] == third)
        #expect(updated.images[1].sha256 == (try Self.sha256("sample-lossy.webp")))
        #expect(try store.diary.get(id: post.id).images == updated.images)
        #expect(try store.images.get(id: third.id) == third)
        #expect(try store.images.get(id: updated.images[1].id) == updated.images[1])
        for dropped in [first, second] {
            #expect(throws: DomainError.notFound(kind: "image", id: dropped.id)) {
                try store.images.get(id: dropped.id)
            }
        }
        #expect(try store.images.count() == 2)

        // Kept by id this time; the other one goes.
        let again = try store.diary.update(id: post.id, text: nil, images: [.reuse(id: third.id)])
        #expect(again.images == [third])
        #expect(try store.images.get(id: third.id) == third)
        #expect(throws: DomainError.notFound(kind: "image", id: updated.images[1].id)) {
            try store.images.get(id: updated.images[1].id)
        }
        #expect(try store.images.count() == 1)
    }

    @Test func revisionMismatchIsAConflictAndChangesNothing() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: "v1", images: [])
        #expect(throws: DomainError.revisionConflict(current: 1)) {
            try store.diary.update(id: post.id, text: "v2", images: nil, ifRevision: 2)
        }
        #expect(try store.diary.get(id: post.id) == post)
        let updated = try store.diary.update(id: post.id, text: "v2", images: nil, ifRevision: 1)
        #expect(updated.revision == 2)
        #expect(throws: DomainError.revisionConflict(current: 2)) {
            try store.diary.update(id: post.id, text: "v3", images: nil, ifRevision: 1)
        }
        #expect(try store.diary.get(id: post.id).text == "v2")
    }

    @Test func updatingAnUnknownPostIsNotFound() throws {
        let store = try Self.makeStore()
        _ = try store.diary.create(text: "exists", images: [])
        #expect(throws: DomainError.notFound(kind: "post", id: "post_404")) {
            try store.diary.update(id: "post_404", text: "x", images: nil)
        }
    }

    // MARK: Delete

    @Test func deletedPostIsNotFound() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: "bye", images: [])
        let other = try store.diary.create(text: "stays", images: [])
        try store.diary.delete(id: post.id)
        #expect(throws: DomainError.notFound(kind: "post", id: post.id)) {
            try store.diary.get(id: post.id)
        }
        #expect(try store.diary.count() == 1)
        #expect(try Self.allPreviews(store, limit: 50).map(\.id) == [other.id])
        #expect(try store.diary.get(id: other.id) == other)
    }

    @Test func deletingTwiceIsNotFound() throws {
        let store = try Self.makeStore()
        let post = try store.diary.create(text: "once", images: [])
        try store.diary.delete(id: post.id)
        #expect(throws: DomainError.notFound(kind: "post", id: post.id)) {
            try store.diary.delete(id: post.id)
        }
    }

    // MARK: Layout

    private static let layouts: [(Int, [[Int]])] = [
        (0, []), (1, [[0]]), (2, [[0, 1]]), (3, [[0, 1], [2]]), (4, [[0, 1], [2, 3]]),
    ]

    @Test(arguments: layouts)
    func layoutRowsFollowTheImageCount(_ count: Int, _ rows: [[Int]]) {
        #expect(DiaryLayout.rows(imageCount: count) == rows)
    }

    @Test(arguments: layouts)
    func postLayoutFollowsItsImages(_ count: Int, _ rows: [[Int]]) throws {
        let store = try Self.makeStore()
        let inputs = try Self.distinctFixtures.prefix(count).map { try Self.base64($0) }
        let post = try store.diary.create(text: "layout", images: inputs)
        #expect(post.layout == rows)
        #expect(try store.diary.get(id: post.id).layout == rows)
    }

    // MARK: List

    @Test func listIsNewestFirst() throws {
        let clock = ManualClock()
        let store = try Self.makeStore(clock: clock)
        var created: [DiaryPost] = []
        for index in 0..<4 {
            created.append(try store.diary.create(text: "post \(index)", images: []))
            clock.advance(by: 60_000)
        }
        // An edit does not move a post: the list is by creation date.
        _ = try store.diary.update(id: created[0].id, text: "edited", images: nil)
        let previews = try Self.allPreviews(store, limit: 50)
        #expect(previews.map(\.id) == created.reversed().map(\.id))
        #expect(previews.map(\.createdAt) == created.reversed().map(\.createdAt))
    }

    @Test(arguments: [1, 2, 3])
    func postsCreatedAtTheSameInstantArePagedWithoutRepeatOrSkip(_ limit: Int) throws {
        let clock = ManualClock()
        let store = try Self.makeStore(clock: clock)
        var ids: [String] = []
        ids.append(try store.diary.create(text: "older", images: []).id)
        clock.advance(by: 1_000)
        // Twelve at once (more than nine, so "post_10" sorts among "post_9" and friends).
        for index in 0..<12 { ids.append(try store.diary.create(text: "same \(index)", images: []).id) }
        clock.advance(by: 1_000)
        ids.append(try store.diary.create(text: "newer", images: []).id)

        let reference = try Self.allPreviews(store, limit: 500).map(\.id)
        #expect(try Self.allPreviews(store, limit: 500).map(\.id) == reference, "the order is not deterministic")
        #expect(reference.count == ids.count)
        #expect(Set(reference) == Set(ids))
        #expect(reference.first == ids.last)
        #expect(reference.last == ids.first)

        let walked = try Self.allPreviews(store, limit: limit).map(\.id)
        #expect(walked == reference)
        #expect(Set(walked).count == walked.count, "a post was listed twice")
    }

    @Test func thumbnailsAreTheFirstTwoImages() throws {
        let store = try Self.makeStore()
        let four = try store.diary.create(
            text: nil, images: try Self.distinctFixtures.prefix(4).map { try Self.base64($0) })
        let three = try store.diary.create(
            text: nil, images: try Self.distinctFixtures.suffix(3).map { try Self.base64($0) })
        let one = try store.diary.create(text: "one", images: [try Self.base64("sample-alpha.webp")])
        let previews = try Self.allPreviews(store, limit: 50)
        let byID = Dictionary(uniqueKeysWithValues: previews.map { ($0.id, $0) })

        let fourPreview = try #require(byID[four.id])
        #expect(fourPreview.thumbnails == Array(four.images.prefix(2)))
        #expect(fourPreview.imageCount == 4)
        let threePreview = try #require(byID[three.id])
        #expect(threePreview.thumbnails == Array(three.images.prefix(2)))
        #expect(threePreview.imageCount == 3)
        let onePreview = try #require(byID[one.id])
        #expect(onePreview.thumbnails == one.images)
        #expect(onePreview.imageCount == 1)
    }

    @Test func textOnlyPreviewHasNoThumbnails() throws {
        let store = try Self.makeStore()
        _ = try store.diary.create(text: nil, images: [try Self.base64("sample.png"), try Self.base64("sample.gif")])
        let textOnly = try store.diary.create(text: "just words", images: [])
        let preview = try #require(try Self.allPreviews(store, limit: 50).first { $0.id == textOnly.id })
        #expect(preview.thumbnails.isEmpty)
        #expect(preview.imageCount == 0)
        #expect(preview.excerpt == "just words")
        #expect(preview.truncated == false)
    }

    @Test func previewExcerptIsTheTextsExcerpt() throws {
        let store = try Self.makeStore()
        let text = (1...7).map { "line \($0)" }.joined(separator: "\n")
        let post = try store.diary.create(text: text, images: [])
        let preview = try #require(try Self.allPreviews(store, limit: 50).first)
        #expect(preview.id == post.id)
        #expect(preview.createdAt == post.createdAt)
        #expect(preview.excerpt == "line 1\nline 2\nline 3\nline 4\nline 5…")
        #expect(preview.truncated)
    }

    @Test(arguments: [
        "not a cursor!", "", "%%%", DomainTestSupport.base64URL("no separator"), DomainTestSupport.base64URL("12~"),
        DomainTestSupport.base64URL("abc~post_1"),
    ])
    func invalidCursorIsInvalidArgument(_ cursor: String) throws {
        let store = try Self.makeStore()
        _ = try store.diary.create(text: "a", images: [])
        let error = #expect(throws: DomainError.self) {
            try store.diary.list(PageRequest(limit: 10, cursor: cursor))
        }
        guard case .invalidArgument(let field, _)? = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(field == "cursor")
    }
}
