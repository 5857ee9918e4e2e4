import Foundation
import Testing

@testable import Domain

@Suite struct ImageStoreTests {
    private static func makeStore(maximumImageBytes: Int = 20 * 1024 * 1024, freeLimit: Int? = nil) throws -> DataStore {
        try DataStore(
            path: nil, settings: DomainSettings(freeLimit: freeLimit, maximumImageBytes: maximumImageBytes),
            clock: ManualClock(), ids: SequentialIDGenerator())
    }

    private static func base64(_ name: String) throws -> ImageInput {
        .data(base64: Data(try ImageFixture.bytes(name)).base64EncodedString(), claimedMimeType: nil)
    }

    /// The `validation` error `body` throws, or nil (recording an issue) when it throws something else or nothing.
    private static func validationError(
        _ body: () throws(DomainError) -> PhotoNote, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (reason: String, field: String, limit: Int64?)? {
        do throws(DomainError) {
            let photo = try body()
            Issue.record("expected a validation error, got \(photo)", sourceLocation: sourceLocation)
        } catch .validation(let reason, let field, let limit) {
            return (reason.rawValue, field, limit)
        } catch {
            Issue.record("expected a validation error, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    // MARK: Stored as given

    @Test(arguments: ImageFixture.images)
    func base64IsStoredAndReturnedByteIdentical(_ fixture: ImageFixture) throws {
        let store = try Self.makeStore()
        let bytes = try fixture.bytes()
        let photo = try store.photos.add(
            image: .data(base64: Data(bytes).base64EncodedString(), claimedMimeType: fixture.mimeType), caption: "c")
        #expect(photo.image.mimeType == fixture.mimeType)
        #expect(photo.image.byteSize == bytes.count)
        #expect(photo.image.width == fixture.width)
        #expect(photo.image.height == fixture.height)
        #expect(photo.image.sha256 == SHA256.hexDigest(bytes))
        #expect(try store.images.get(id: photo.image.id) == photo.image)
        let (record, data) = try store.images.data(id: photo.image.id)
        #expect(record == photo.image)
        #expect(data == bytes)
        #expect(try store.images.count() == 1)
        #expect(try store.photos.get(id: photo.id).image == photo.image)
    }

    @Test func sha256IsTheContentsDigest() throws {
        let store = try Self.makeStore()
        let photo = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        // hashlib.sha256(open("sample.png", "rb").read()).hexdigest()
        #expect(photo.image.sha256 == "c9935473c1868bbb79608ec227b7390e1b586461d73d531ed8401aeaa42dffc8")
    }

    @Test(arguments: ImageFixture.images)
    func absolutePathIsRead(_ fixture: ImageFixture) throws {
        let store = try Self.makeStore()
        let bytes = try fixture.bytes()
        #expect(fixture.path.hasPrefix("/"))
        let photo = try store.photos.add(image: .path(fixture.path), caption: nil)
        #expect(photo.image.mimeType == fixture.mimeType)
        #expect(photo.image.byteSize == bytes.count)
        #expect(photo.image.width == fixture.width)
        #expect(photo.image.height == fixture.height)
        #expect(photo.image.sha256 == SHA256.hexDigest(bytes))
        #expect(try store.images.data(id: photo.image.id).1 == bytes)
    }

    // MARK: Refused inputs

    @Test func relativePathIsRefused() throws {
        let store = try Self.makeStore()
        for path in ["sample.png", "Fixtures/sample.png", "./sample.png", "~/sample.png", ""] {
            #expect(throws: DomainError.validation(reason: .imagePathNotAbsolute, field: "image.path")) {
                try store.photos.add(image: .path(path), caption: nil)
            }
        }
        #expect(try store.images.count() == 0)
        #expect(try store.photos.count() == 0)
    }

    @Test func directoryOrMissingFileIsUnreadable() throws {
        let store = try Self.makeStore()
        let missing = ImageFixture.path("no-such-file-\(UUID().uuidString).png")
        #expect(!FileManager.default.fileExists(atPath: missing))
        for path in [ImageFixture.folder.path, "/", missing, "/no/such/directory/sample.png"] {
            #expect(throws: DomainError.validation(reason: .imageUnreadable, field: "image.path"), "\(path)") {
                try store.photos.add(image: .path(path), caption: nil)
            }
        }
        #expect(try store.images.count() == 0)
        #expect(try store.photos.count() == 0)
    }

    @Test func invalidBase64IsRefused() throws {
        let store = try Self.makeStore()
        for text in ["not base64!", "@@@@", "iVBORw0KGgo=-_", "QUJD\u{E9}", "iVBORw0K*Ggo="] {
            #expect(throws: DomainError.validation(reason: .invalidBase64, field: "image.data"), "\(text)") {
                try store.photos.add(image: .data(base64: text, claimedMimeType: "image/png"), caption: nil)
            }
        }
        #expect(try store.images.count() == 0)
        #expect(try store.photos.count() == 0)
    }

    @Test func base64WithWhiteSpaceIsAccepted() throws {
        let store = try Self.makeStore()
        let bytes = try ImageFixture.bytes("sample-baseline.jpg")
        let wrapped = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        #expect(wrapped.contains("\r\n"))
        let photo = try store.photos.add(image: .data(base64: wrapped, claimedMimeType: nil), caption: nil)
        #expect(try store.images.data(id: photo.image.id).1 == bytes)
    }

    @Test func renamedTextFileIsUnsupported() throws {
        let store = try Self.makeStore()
        #expect(throws: DomainError.validation(reason: .unsupportedImage, field: "image")) {
            try store.photos.add(image: try Self.base64(ImageFixture.notAnImage), caption: nil)
        }
        #expect(throws: DomainError.validation(reason: .unsupportedImage, field: "image")) {
            try store.photos.add(image: .path(ImageFixture.path(ImageFixture.notAnImage)), caption: nil)
        }
        #expect(try store.images.count() == 0)
        #expect(try store.photos.count() == 0)
    }

    // MARK: Size limit

    @Test func overTheByteLimitIsRefused() throws {
        let bytes = try ImageFixture.bytes("sample-baseline.jpg")
        let limit = bytes.count - 1
        let store = try Self.makeStore(maximumImageBytes: limit)
        #expect(store.images.maximumBytes == limit)
        let inputs: [ImageInput] = [
            .data(base64: Data(bytes).base64EncodedString(), claimedMimeType: nil),
            .data(base64: Data(bytes + [UInt8](repeating: 0, count: 10_000)).base64EncodedString(), claimedMimeType: nil),
            .path(ImageFixture.path("sample-baseline.jpg")),
        ]
        for input in inputs {
            let error = Self.validationError { () throws(DomainError) in try store.photos.add(image: input, caption: nil) }
            #expect(error?.reason == "imageTooLarge", "\(input)")
            #expect(error?.limit == Int64(limit), "\(input)")
            #expect(error?.field.hasPrefix("image") == true, "\(input)")
        }
        #expect(
            throws: DomainError.validation(reason: .imageTooLarge, field: "image.path", limit: Int64(limit))
        ) {
            try store.photos.add(image: .path(ImageFixture.path("sample-baseline.jpg")), caption: nil)
        }
        #expect(try store.images.count() == 0)
        #expect(try store.photos.count() == 0)
        // Something within the limit still goes in.
        let small = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        #expect(small.image.mimeType == "image/png")
    }

    @Test func exactlyAtTheByteLimitIsAccepted() throws {
        let bytes = try ImageFixture.bytes("sample-baseline.jpg")
        let store = try Self.makeStore(maximumImageBytes: bytes.count)
        let fromData = try store.photos.add(image: try Self.base64("sample-baseline.jpg"), caption: nil)
        let fromPath = try store.photos.add(image: .path(ImageFixture.path("sample-baseline.jpg")), caption: nil)
        #expect(fromData.image.byteSize == bytes.count)
        #expect(fromPath.image == fromData.image)
    }

    @Test func wrappedBase64AtTheByteLimitIsAccepted() throws {
        let bytes = try ImageFixture.bytes("sample-baseline.jpg")
        let store = try Self.makeStore(maximumImageBytes: bytes.count)
        let wrapped = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let photo = try store.photos.add(image: .data(base64: wrapped, claimedMimeType: nil), caption: nil)
        #expect(photo.image.byteSize == bytes.count)
    }

    @Test func tooLargeBase64NamesOneField() throws {
        let bytes = try ImageFixture.bytes("sample-baseline.jpg")
        let store = try Self.makeStore(maximumImageBytes: bytes.count - 1)
        let slightly = Self.validationError { () throws(DomainError) in
            try store.photos.add(image: .data(base64: Data(bytes).base64EncodedString(), claimedMimeType: nil), caption: nil)
        }
        let far = Self.validationError { () throws(DomainError) in
            try store.photos.add(
                image: .data(base64: Data(bytes + bytes + bytes).base64EncodedString(), claimedMimeType: nil),
                caption: nil)
        }
        #expect(slightly?.reason == "imageTooLarge")
        #expect(far?.reason == "imageTooLarge")
        #expect(slightly?.field == far?.field)
    }

    // MARK: Stored once per content

    @Test func sameContentIsStoredOnce() throws {
        let store = try Self.makeStore()
        let first = try store.photos.add(image: try Self.base64("sample.gif"), caption: "one")
        let second = try store.photos.add(
            image: .data(base64: Data(try ImageFixture.bytes("sample.gif")).base64EncodedString(), claimedMimeType: "image/png"),
            caption: "two")
        let third = try store.photos.add(image: .path(ImageFixture.path("sample.gif")), caption: "three")
        #expect(first.id != second.id)
        #expect(second.id != third.id)
        #expect(second.image == first.image)
        #expect(third.image == first.image)
        #expect(try store.images.count() == 1)
        #expect(try store.photos.count() == 3)
        // A different image is a second row.
        let other = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        #expect(other.image.id != first.image.id)
        #expect(try store.images.count() == 2)
    }

    @Test func reuseOfAnExistingImage() throws {
        let store = try Self.makeStore()
        let first = try store.photos.add(image: try Self.base64("sample-lossy.webp"), caption: nil)
        let second = try store.photos.add(image: .reuse(id: first.image.id), caption: "again")
        #expect(second.image == first.image)
        #expect(second.id != first.id)
        #expect(try store.images.count() == 1)
        // The reuse took a hold of its own: the image outlives the first owner.
        try store.photos.delete(id: first.id)
        #expect(try store.images.get(id: first.image.id) == first.image)
        try store.photos.delete(id: second.id)
        #expect(throws: DomainError.notFound(kind: "image", id: first.image.id)) {
            try store.images.get(id: first.image.id)
        }
    }

    @Test func reuseOfAnUnknownImageIsNotFound() throws {
        let store = try Self.makeStore()
        #expect(throws: DomainError.notFound(kind: "image", id: "img_404")) {
            try store.photos.add(image: .reuse(id: "img_404"), caption: nil)
        }
        #expect(try store.photos.count() == 0)
        #expect(try store.images.count() == 0)
        // An id that existed once but whose image is gone is unknown too.
        let photo = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        try store.photos.delete(id: photo.id)
        #expect(throws: DomainError.notFound(kind: "image", id: photo.image.id)) {
            try store.photos.add(image: .reuse(id: photo.image.id), caption: nil)
        }
        #expect(try store.photos.count() == 0)
    }

    // MARK: Owners

    @Test func imageGoesWithItsLastOwner() throws {
        let store = try Self.makeStore()
        let bytes = try ImageFixture.bytes("sample.heic")
        let first = try store.photos.add(image: try Self.base64("sample.heic"), caption: "a")
        let second = try store.photos.add(image: .path(ImageFixture.path("sample.heic")), caption: "b")
        #expect(second.image.id == first.image.id)

        try store.photos.delete(id: first.id)
        #expect(try store.images.get(id: first.image.id) == first.image)
        #expect(try store.images.data(id: first.image.id).1 == bytes)
        #expect(try store.images.count() == 1)
        #expect(try store.photos.get(id: second.id).image == first.image)

        try store.photos.delete(id: second.id)
        #expect(throws: DomainError.notFound(kind: "image", id: first.image.id)) {
            try store.images.get(id: first.image.id)
        }
        #expect(throws: DomainError.notFound(kind: "image", id: first.image.id)) {
            try store.images.data(id: first.image.id)
        }
        #expect(try store.images.count() == 0)

        // Adding the same content afterwards stores it afresh.
        let third = try store.photos.add(image: try Self.base64("sample.heic"), caption: nil)
        #expect(third.image.id != first.image.id)
        #expect(try store.images.data(id: third.image.id).1 == bytes)
    }

    @Test func deletingOnePhotoKeepsOtherImages() throws {
        let store = try Self.makeStore()
        let png = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        let gif = try store.photos.add(image: try Self.base64("sample.gif"), caption: nil)
        try store.photos.delete(id: png.id)
        #expect(try store.images.count() == 1)
        #expect(try store.images.get(id: gif.image.id) == gif.image)
        #expect(throws: DomainError.notFound(kind: "image", id: png.image.id)) {
            try store.images.get(id: png.image.id)
        }
    }

    @Test func unknownImageIsNotFound() throws {
        let store = try Self.makeStore()
        #expect(throws: DomainError.notFound(kind: "image", id: "img_1")) { try store.images.get(id: "img_1") }
        #expect(throws: DomainError.notFound(kind: "image", id: "img_1")) { try store.images.data(id: "img_1") }
    }

    // MARK: Failed adds leave nothing

    @Test func failedAddLeavesNoImageBehind() throws {
        let store = try Self.makeStore(freeLimit: 1)
        let kept = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        #expect(throws: DomainError.freeLimitReached(limit: 1)) {
            try store.photos.add(image: try Self.base64("sample-alpha.webp"), caption: nil)
        }
        #expect(try store.images.count() == 1)
        #expect(try store.photos.count() == 1)
        // Neither a refused add of the same content nor a refused reuse takes a hold on the image...
        #expect(throws: DomainError.freeLimitReached(limit: 1)) {
            try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        }
        #expect(throws: DomainError.freeLimitReached(limit: 1)) {
            try store.photos.add(image: .reuse(id: kept.image.id), caption: nil)
        }
        // ...so it goes with its one real owner.
        try store.photos.delete(id: kept.id)
        #expect(try store.images.count() == 0)
        #expect(throws: DomainError.notFound(kind: "image", id: kept.image.id)) {
            try store.images.get(id: kept.image.id)
        }
    }

    /// Gives every photo note the same id, so the second photo note's insert fails after its image was stored.
    private final class CollidingPhotoIDs: IDGenerator {
        private var next = 1
        func makeID(kind: String, after floor: String?) -> String {
            defer { next += 1 }
            return kind == "photo" ? "photo_same" : "\(kind)_\(next)"
        }
    }

    @Test func addFailingAfterTheImageWasStoredRollsItBack() throws {
        let store = try DataStore(path: nil, settings: DomainSettings(), clock: ManualClock(), ids: CollidingPhotoIDs())
        let first = try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        #expect(first.id == "photo_same")
        let error = #expect(throws: DomainError.self) {
            try store.photos.add(image: try Self.base64("sample-lossless.webp"), caption: nil)
        }
        if case .storage = error {} else { Issue.record("expected a storage error, got \(String(describing: error))") }
        #expect(try store.images.count() == 1)
        // The same for content already stored: its owner count is unchanged, so it goes with its one owner.
        #expect(throws: DomainError.self) {
            try store.photos.add(image: try Self.base64("sample.png"), caption: nil)
        }
        try store.photos.delete(id: first.id)
        #expect(try store.images.count() == 0)
    }
}

@Suite struct ImageRenditionStoreTests {
    private func renditions(_ store: DataStore, _ id: String) throws -> Int64 {
        try store.database.scalarInteger("SELECT count(*) FROM image_renditions WHERE image_id = ?1", [.text(id)]) ?? -1
    }

    @Test func renditionsAreKeptWithTheImageRebuiltWhenMissingAndRemovedWithIt() throws {
        let store = try DataStore(path: nil, settings: DomainSettings(), clock: ManualClock(), ids: SequentialIDGenerator())
        let jpeg = try ImageFixture.bytes("sample-baseline.jpg")
        let photo = try store.photos.add(image: .data(base64: Data(jpeg).base64EncodedString(), claimedMimeType: nil), caption: nil)
        let id = photo.image.id
        #expect(try renditions(store, id) == 1, "a JPEG's thumbnail comes from the small decode that checked it")
        let (_, display) = try store.images.size(id: id, "display")
        #expect(display.width == photo.image.width && display.mimeType == "image/jpeg")
        #expect(try renditions(store, id) == 2, "the display size is made when first asked for, and kept")
        let (_, kept) = try store.images.size(id: id, "thumbnail")
        try store.database.execute("DELETE FROM image_renditions")
        let (_, rebuilt) = try store.images.size(id: id, "thumbnail")
        #expect(rebuilt == kept)
        #expect(try renditions(store, id) == 1, "made again, and kept")
        let (_, original) = try store.images.size(id: id, "original")
        #expect(original.bytes == jpeg && original.mimeType == "image/jpeg")
        _ = try store.photos.delete(id: photo.id)
        #expect(try renditions(store, id) == 0)
    }

    /// An import decodes each image as `photos.add` does, and keeps what that decode makes at once.
    @Test func renditionsAreNotExportedAndAnImportMakesThemAsAnAddDoes() throws {
        let source = try DataStore(path: nil, settings: DomainSettings(), clock: ManualClock(), ids: SequentialIDGenerator())
        let jpeg = try ImageFixture.bytes("sample-baseline.jpg")
        let photo = try source.photos.add(image: .data(base64: Data(jpeg).base64EncodedString(), claimedMimeType: nil), caption: nil)
        let (_, kept) = try source.images.size(id: photo.image.id, "display")
        let document = try source.exchange.export()
        #expect(document.images.map(\.data) == [Data(jpeg).base64EncodedString()], "the original only")
        let target = try DataStore(path: nil, settings: DomainSettings(), clock: ManualClock(), ids: SequentialIDGenerator())
        _ = try target.exchange.importDocument(document, mode: .replace)
        #expect(try renditions(target, photo.image.id) == 1, "a JPEG's thumbnail, made with the check")
        let (_, rebuilt) = try target.images.size(id: photo.image.id, "display")
        #expect(rebuilt == kept)
        #expect(try renditions(target, photo.image.id) == 2, "its display size when first asked for")
    }

    @Test func whatDecodesWholeGetsBothSizesWhenAdded() throws {
        let store = try DataStore(path: nil, settings: DomainSettings(), clock: ManualClock(), ids: SequentialIDGenerator())
        for fixture in ["sample.png", "sample-lossy.webp", "sample.heic", "sample.gif"] {
            let photo = try store.photos.add(
                image: .data(base64: Data(try ImageFixture.bytes(fixture)).base64EncodedString(), claimedMimeType: nil),
                caption: nil)
            #expect(try renditions(store, photo.image.id) == 2, "\(fixture)")
        }
    }

    @Test func aPostsPhotosArePreparedTogetherAndTheFirstFailureIsTheOneReported() throws {
        let store = try DataStore(path: nil, settings: DomainSettings(), clock: ManualClock(), ids: SequentialIDGenerator())
        let good = ImageInput.data(
            base64: Data(try ImageFixture.bytes("sample-baseline.jpg")).base64EncodedString(), claimedMimeType: nil)
        let cut = try ImageFixture.bytes("sample.png")
        let damaged = ImageInput.data(base64: Data(cut.prefix(cut.count / 2)).base64EncodedString(), claimedMimeType: nil)
        let error = #expect(throws: DomainError.self) {
            try store.diary.create(text: "x", images: [good, damaged, good, .data(base64: "!!", claimedMimeType: nil)])
        }
        #expect(error == .validation(reason: .damagedImage, field: "images[1]"))
        #expect(try store.images.count() == 0)
        let post = try store.diary.create(text: "x", images: [good, .data(base64: Data(cut).base64EncodedString(), claimedMimeType: nil)])
        #expect(post.images.map(\.mimeType) == ["image/jpeg", "image/png"])
    }
}
