import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol

/// ENotes photo notes and stored images (SPEC §5, §6).
enum PhotoMethods {
    static func methods(store: DataStore) -> [RPCMethod] {
        methods(photos: store.photos, images: store.images) + uploadMethods
    }

    private static func methods(photos: PhotoNoteStore, images: ImageStore) -> [RPCMethod] {
        let idParam = Required.string("id", Schema.id, "The photo note's id.")
        let image = Required.json(
            "image", ImageInput.schema, "The photo: base64 data, a local path, an image id or a finished upload.")
        return [
            RPCMethod(
                "photos.add", summary: "Adds a photo note at the end of the photo list.",
                params: [
                    image.spec,
                    .optional("caption", Schema.nullable(Schema.string()), "A caption of at most 1000 characters."),
                ], result: PhotoNote.schema
            ) { params, session in
                let input = try ImageInput(params[image], session: session, field: "image")
                let added = try photos.add(image: input, caption: params.string("caption")).json
                session.uploads.remove(ImageInput.uploads(in: [params[image]]))
                return added
            }.raising(.freeLimitReached),
            RPCMethod("photos.get", summary: "One photo note.", params: [idParam.spec], result: PhotoNote.schema) {
                params, _ in
                try photos.get(id: params[idParam]).json
            },
            RPCMethod(
                "photos.list", summary: "Photo notes in the user's order, a page at a time.", params: Schema.pageParams,
                result: Schema.page(of: PhotoNote.schema)
            ) { params, _ in
                try photos.list(params.pageRequest).json { $0.write(photo: $1) }
            },
            RPCMethod(
                "photos.update", summary: "Sets the caption (null clears it).",
                params: [
                    idParam.spec,
                    .optional("caption", Schema.nullable(Schema.string()), "The new caption, or null."),
                    .optional("ifRevision", Schema.integer(minimum: 1), "Change only if still at this revision."),
                ], result: PhotoNote.schema
            ) { params, _ in
                let id = params[idParam], caption = params.change("caption", params.string)
                return try photos.update(id: id, caption: caption, ifRevision: params.integer("ifRevision")).json
            },
            .delete(
                "photos.delete", summary: "Deletes a photo note (its image too, when nothing else uses it).",
                id: idParam
            ) { id, _ in try photos.delete(id: id) },
            .move(
                "photos.move", summary: "Moves a photo note to a 0-based position in the photo list.", id: idParam,
                result: PhotoNote.schema
            ) { id, index, _ in try photos.move(id: id, to: index).json },
            RPCMethod(
                "images.get",
                summary: "A stored image in base64: the original byte for byte, or a smaller copy for showing it.",
                params: [
                    .required("id", Schema.id, "The image's id."),
                    .optional(
                        "size", Schema.enumeration(ImageRecord.sizes),
                        "original (the default), display (at most 1600 px a side) or thumbnail (at most 320 px)"),
                ],
                result: ImageRecord.storedSchema
            ) { params, _ in
                let (record, size) = try images.size(id: params[idParam], params.string("size") ?? "original")
                let rendition: JSONValue = [
                    "size": .string(size.size), "mimeType": .string(size.mimeType),
                    "width": .integer(Int64(size.width)), "height": .integer(Int64(size.height)),
                    "byteSize": .integer(Int64(size.bytes.count)),
                ]
                return [
                    "image": record.json, "data": .string(Data(size.bytes).base64EncodedString()),
                    "rendition": rendition,
                ]
            },
        ]
    }

    /// An upload as the upload methods answer it.
    private static let uploadSchema = Schema.object(
        [
            ("uploadId", Schema.id), ("byteSize", Schema.integer(minimum: 0)), ("received", Schema.integer(minimum: 0)),
            ("chunkBytes", Schema.integer(minimum: 1)), ("finished", Schema.boolean), ("mimeType", Schema.string()),
        ], required: ["uploadId", "byteSize", "received", "chunkBytes", "finished"])

    private static func json(_ id: String, _ upload: ImageUploads.Upload, chunkBytes: Int) -> JSONValue {
        let mimeType: JSONValue? = upload.finished ? (ImageFormat.inspect(upload.bytes)?.format.mimeType).map { .string($0) } : nil
        let members: [(String, JSONValue?)] = [
            ("uploadId", .string(id)), ("byteSize", .integer(Int64(upload.byteSize))),
            ("received", .integer(Int64(upload.bytes.count))), ("chunkBytes", .integer(Int64(chunkBytes))),
            ("finished", .bool(upload.finished)), ("mimeType", mimeType),
        ]
        return .object(JSONObject(members.compactMap { name, value in value.map { (name, $0) } }))
    }

    /// An image in chunks, for one that does not fit in a message (or a client that holds it only in
    /// memory): begin, append each chunk (base64, at most `chunkBytes` bytes), finish; then pass
    /// `{uploadId}` where an image goes.
    private static var uploadMethods: [RPCMethod] {
        let uploadID = Required.string("uploadId", Schema.id, "The upload's id, from images.beginUpload.")
        return [
            RPCMethod(
                "images.beginUpload", summary: "Begins an image upload of byteSize bytes, to be sent in chunks.",
                params: [.required("byteSize", Schema.integer(minimum: 1), "The image's size in bytes.")],
                result: uploadSchema
            ) { params, session in
                let (id, upload) = try session.uploads.begin(byteSize: Int(params.integer("byteSize") ?? 0))
                return json(id, upload, chunkBytes: session.uploads.chunkBytes)
            },
            RPCMethod(
                "images.appendUpload",
                summary: "Adds the next chunk; a chunk sent again after a lost answer is accepted once more.",
                params: [
                    uploadID.spec,
                    .required("offset", Schema.integer(minimum: 0), "Where the chunk begins: the bytes received so far."),
                    .required("data", Schema.string(description: "base64"), "The chunk, at most chunkBytes bytes."),
                ], result: uploadSchema
            ) { params, session in
                guard let chunk = Data(base64Encoded: params.string("data") ?? "") else {
                    throw DomainError.validation(reason: .invalidBase64, field: "data")
                }
                let id = params[uploadID]
                let upload = try session.uploads.append(
                    id: id, offset: Int(params.integer("offset") ?? 0), chunk: [UInt8](chunk))
                return json(id, upload, chunkBytes: session.uploads.chunkBytes)
            },
            RPCMethod(
                "images.finishUpload", summary: "Ends an upload whose bytes have all arrived; then use {uploadId}.",
                params: [uploadID.spec], result: uploadSchema
            ) { params, session in
                let id = params[uploadID]
                return json(id, try session.uploads.finish(id: id), chunkBytes: session.uploads.chunkBytes)
            },
            RPCMethod(
                "images.discardUpload", summary: "Abandons an upload: what arrived is dropped.",
                params: [uploadID.spec],
                result: Schema.object(allRequired: [("uploadId", Schema.id), ("discarded", Schema.boolean)])
            ) { params, session in
                let id = params[uploadID]
                try session.uploads.discard(id: id)
                return ["uploadId": .string(id), "discarded": true]
            },
        ]
    }
}
