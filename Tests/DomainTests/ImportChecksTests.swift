import Foundation
import Testing

@testable import Domain

/// An import runs every check the methods it stands for run: images are decoded as `photos.add` decodes
/// them, and an id is of its own kind.
@Suite struct ImportChecksTests {
    typealias Support = DomainTestSupport

    /// A document holding one image of `bytes` (its sha256 correct) and a photo note of it.
    static func document(image bytes: [UInt8]) throws -> ExchangeDocument {
        let source = try Support.openStore()
        _ = try source.photos.add(image: Support.png(), caption: "a photo")
        var document = try source.exchange.export()
        document.images[0].data = Data(bytes).base64EncodedString()
        document.images[0].sha256 = SHA256.hexDigest(bytes)
        return document
    }

    @Test func aCutShortImageIsDamagedThoughItsHashIsRight() throws {
        let whole = Support.pngBytes()
        let document = try Self.document(image: Array(whole.prefix(whole.count - 20)))
        let target = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .damagedImage, field: "document.images[0].data")) {
            try target.exchange.importDocument(document, mode: .merge)
        }
        #expect(try target.photos.count() == 0)
        #expect(try target.images.count() == 0)
    }

    @Test func aHeaderClaimingSixtyThousandPixelsSquareIsTooManyPixels() throws {
        var bytes = Support.pngBytes()
        // IHDR's width and height (bytes 16..<24), its CRC (29..<33) made right again.
        for (offset, value) in [(16, UInt32(60_000)), (20, UInt32(60_000))] {
            for shift in 0..<4 { bytes[offset + shift] = UInt8(value >> (24 - 8 * UInt32(shift)) & 0xFF) }
        }
        let crc = Support.crc32(Array(bytes[12..<29]))
        for shift in 0..<4 { bytes[29 + shift] = UInt8(crc >> (24 - 8 * UInt32(shift)) & 0xFF) }
        let document = try Self.document(image: bytes)
        let target = try Support.openStore()
        #expect {
            try target.exchange.importDocument(document, mode: .merge)
        } throws: { error in
            guard case .validation(.imageTooManyPixels, "document.images[0].data", _) = error as? DomainError else { return false }
            return true
        }
        #expect(try target.images.count() == 0)
    }

    @Test func aGoodImageComesInWithItsThumbnailMade() throws {
        let document = try Self.document(image: Support.pngBytes(tag: 7))
        let target = try Support.openStore()
        _ = try target.exchange.importDocument(document, mode: .merge)
        #expect(try target.images.count() == 1)
        #expect(try target.database.scalarInteger("SELECT count(*) FROM image_renditions") ?? 0 >= 1)
    }

    @Test(arguments: ["photo_01", "img_2", "rem_3", "bp_4", "a/b", " ", ""])
    func aNoteCannotTakeAnIdOfAnotherKindOrForm(id: String) throws {
        let source = try Support.openStore()
        _ = try source.notes.create(NoteDraft(title: "n"))
        var document = try source.exchange.export()
        document.notes[0].id = id
        let target = try Support.openStore()
        #expect(throws: DomainError.validation(reason: .invalidDocument, field: "document.notes[0].id")) {
            try target.exchange.importDocument(document, mode: .merge)
        }
        // Its own kind, or an id of no kind the methods make, comes in.
        for fine in ["note_x1", "legacy-42"] {
            document.notes[0].id = fine
            _ = try target.exchange.importDocument(document, mode: .merge)
        }
        #expect(try target.notes.count() == 2)
    }
}
