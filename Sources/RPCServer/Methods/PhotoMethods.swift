import Domain
import Foundation
import Protocol

/// ENotes photo notes and stored images (SPEC §5, §6).
enum PhotoMethods {
    static func methods(store: DataStore) -> [RPCMethod] {
        let photos = store.photos
        let images = store.images
        let idParam = Required.string("id", Schema.id, "The photo note's id.")
        let image = Required.json("image", ImageInput.schema, "The photo: base64 data, a local path or an image id.")
        return [
            RPCMethod(
                "photos.add", summary: "Adds a photo note at the end of the photo list.",
                params: [
                    image.spec,
                    .optional("caption", Schema.nullable(Schema.string()), "A caption of at most 1000 characters."),
                ], result: PhotoNote.schema
            ) { params, session in
                let input = try ImageInput(params[image], files: session.fileAccess, field: "image")
                return try photos.add(image: input, caption: params.string("caption")).json
            },
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
                result: Schema.object(
                    [
                        ("image", ImageRecord.schema), ("data", Schema.string(description: "base64")),
                        (
                            "rendition",
                            Schema.object(allRequired: [
                                ("size", Schema.enumeration(ImageRecord.sizes)), ("mimeType", Schema.string()),
                                ("width", Schema.integer(minimum: 1)), ("height", Schema.integer(minimum: 1)),
                                ("byteSize", Schema.integer(minimum: 0)),
                            ])
                        ),
                    ],
                    required: ["image", "data", "rendition"])
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
}
