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
                "photos.add", title: "Add a photo note",
                summary: "Adds a photo note at the end of the photo list, from an image given as base64 data, a file path, a stored image's id or a finished upload, with a caption of at most 1000 characters. Returns the photo note with its image's metadata. -32002 for an image that is not PNG, JPEG, GIF, WebP or HEIC, is damaged or too large, or a path this client may not read; -32003 past the free edition's limit.",
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
            RPCMethod(
                "photos.get", title: "Read a photo note",
                summary: "Reads one photo note by its id: caption, times, revision and its image's metadata (the picture itself comes from images.get). -32001 when no photo note has that id.",
                params: [idParam.spec], result: PhotoNote.schema
            ) { params, _ in
                try photos.get(id: params[idParam]).json
            },
            RPCMethod(
                "photos.list", title: "List photo notes",
                summary: "Lists the photo notes in the user's order, a page at a time, each with its image's metadata: pass an answer's `nextCursor` as `cursor` for the next page. Returns {items, nextCursor}.",
                params: Schema.pageParams,
                result: Schema.page(of: PhotoNote.schema)
            ) { params, _ in
                try photos.list(params.pageRequest).json { $0.write(photo: $1) }
            },
            RPCMethod(
                "photos.update", title: "Caption a photo note",
                summary: "Sets a photo note's caption (null clears it). Returns the photo note, its revision one higher. -32001 when no photo note has that id; -32002 captionTooLong past 1000 characters; -32006 when `ifRevision` is no longer its revision.",
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
                "photos.delete", title: "Delete a photo note",
                summary: "Deletes a photo note, and its image when nothing else uses it. Returns {id, deleted: true}; -32001 when no photo note has that id.",
                id: idParam
            ) { id, _ in try photos.delete(id: id) },
            .move(
                "photos.move", title: "Move a photo note",
                summary: "Moves a photo note to a 0-based position in the photo list (0 is the top); the others shift. Returns it at its new place; -32002 indexOutOfRange past the end.",
                id: idParam,
                result: PhotoNote.schema
            ) { id, index, _ in try photos.move(id: id, to: index).json },
            RPCMethod(
                "images.get", title: "View an image",
                summary: "Gives a stored image (a photo note's or a diary post's) in base64: the original byte for byte (the default), or an upright copy without metadata for showing it, `display` (at most 1600 px a side) or `thumbnail` (at most 320 px). Returns {image, data, rendition}; -32001 when no image has that id. As an MCP tool it gives the picture itself as image content, display (the default) or thumbnail, never the original, and {image, rendition} as structured content.",
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
                "images.beginUpload", title: "Begin an image upload",
                summary: "Begins uploading an image too large for one message, `byteSize` bytes in chunks: then images.appendUpload each chunk and images.finishUpload. Returns {uploadId, byteSize, received, chunkBytes, finished}. -32002 imageTooLarge past --max-image-bytes, tooManyUploads past 8 at once.",
                params: [.required("byteSize", Schema.integer(minimum: 1), "The image's size in bytes.")],
                result: uploadSchema
            ) { params, session in
                let (id, upload) = try session.uploads.begin(byteSize: Int(params.integer("byteSize") ?? 0))
                return json(id, upload, chunkBytes: session.uploads.chunkBytes)
            },
            RPCMethod(
                "images.appendUpload", title: "Send an upload chunk",
                summary: "Adds the next chunk of an upload (base64, at most `chunkBytes` bytes) at `offset`, the bytes received so far; a chunk sent again after a lost answer is accepted once more. Returns the upload with what it has `received`. -32002 uploadOffset (its limit says where to resume), chunkTooLarge or imageTooLarge; -32001 for an unknown upload.",
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
                "images.finishUpload", title: "Finish an image upload",
                summary: "Ends an upload whose bytes have all arrived and checks that it is an image; then {uploadId} stands for it wherever an image goes (photos.add, diary.create). Returns the upload, `finished: true`, with its mimeType. -32002 uploadIncomplete or unsupportedImage.",
                params: [uploadID.spec], result: uploadSchema
            ) { params, session in
                let id = params[uploadID]
                return json(id, try session.uploads.finish(id: id), chunkBytes: session.uploads.chunkBytes)
            },
            RPCMethod(
                "images.discardUpload", title: "Discard an image upload",
                summary: "Abandons an upload: what arrived is dropped. Returns {uploadId, discarded: true}; -32001 for an unknown upload.",
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
