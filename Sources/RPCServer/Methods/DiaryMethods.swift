import Domain
import Foundation
import Protocol

/// The "Moments" diary (SPEC §7).
enum DiaryMethods {
    static let layoutSchema = Schema.array(of: Schema.array(of: Schema.integer(minimum: 0, maximum: 3)))

    static let postSchema = Schema.object(
        [
            ("id", Schema.id), ("text", Schema.nullable(Schema.string())),
            ("images", Schema.array(of: EntityJSON.imageSchema, maxItems: 4)), ("createdAt", Schema.timestamp),
            ("updatedAt", Schema.timestamp), ("revision", Schema.integer(minimum: 1)),
            ("displayDate", Schema.string(description: "dd/MM/yyyy HH:mm in the session's time zone")),
            ("layout", layoutSchema),
        ], required: ["id", "text", "images", "createdAt", "updatedAt", "revision", "displayDate", "layout"])

    static let previewSchema = Schema.object(
        [
            ("id", Schema.id), ("displayDate", Schema.string()), ("createdAt", Schema.timestamp),
            ("excerpt", Schema.string(description: "at most 5 lines and 600 characters")), ("truncated", Schema.boolean),
            ("thumbnails", Schema.array(of: EntityJSON.imageSchema, maxItems: 2)), ("imageCount", Schema.integer(minimum: 0)),
        ], required: ["id", "displayDate", "createdAt", "excerpt", "truncated", "thumbnails", "imageCount"])

    static func post(_ post: DiaryPost, zone: TimeZone) -> JSONValue {
        .encoded(
            EncodedJSON(capacity: 256 + (post.text?.utf8.count ?? 0) + 160 * post.images.count) { writer in
                writer.writeRaw("{\"id\":")
                writer.write(string: post.id)
                writer.writeRaw(",\"text\":")
                writer.write(optionalString: post.text)
                writer.writeRaw(",\"images\":")
                writer.write(images: post.images)
                writer.writeRaw(",\"createdAt\":")
                writer.write(timestamp: post.createdAt)
                writer.writeRaw(",\"updatedAt\":")
                writer.write(timestamp: post.updatedAt)
                writer.writeRaw(",\"revision\":")
                writer.write(integer: post.revision)
                writer.writeRaw(",\"displayDate\":")
                writer.write(string: DisplayDate.format(milliseconds: post.createdAt, in: zone))
                writer.writeRaw(",\"layout\":")
                writer.write(.array(post.layout.map { row in .array(row.map { .integer(Int64($0)) }) }))
                writer.writeByte(UInt8(ascii: "}"))
            })
    }

    static func write(preview: DiaryPreview, zone: TimeZone, into writer: inout JSONWriter) {
        writer.writeRaw("{\"id\":")
        writer.write(string: preview.id)
        writer.writeRaw(",\"displayDate\":")
        writer.write(string: DisplayDate.format(milliseconds: preview.createdAt, in: zone))
        writer.writeRaw(",\"createdAt\":")
        writer.write(timestamp: preview.createdAt)
        writer.writeRaw(",\"excerpt\":")
        writer.write(string: preview.excerpt)
        writer.writeRaw(",\"truncated\":")
        writer.write(bool: preview.truncated)
        writer.writeRaw(",\"thumbnails\":")
        writer.write(images: preview.thumbnails)
        writer.writeRaw(",\"imageCount\":")
        writer.write(integer: Int64(preview.imageCount))
        writer.writeByte(UInt8(ascii: "}"))
    }

    static func imageInputs(_ params: ParamValues) -> [ImageInput]? {
        params.array("images")?.map(EntityJSON.imageInput)
    }

    static func methods(store: DataStore) -> [RPCMethod] {
        let diary = store.diary
        let idParam = ParamSpec.required("id", Schema.id, "The post's id.")
        // The schema lets a fifth image through so that the domain can answer `tooManyImages` (-32002).
        let imagesSchema = Schema.array(of: EntityJSON.imageInputSchema)
        return [
            RPCMethod(
                "diary.create", summary: "Creates a post dated now: text of any length and/or up to 4 photos.",
                params: [
                    .optional("text", Schema.nullable(Schema.string()), "The text."),
                    .optional("images", imagesSchema, "Up to 4 photos: base64 data, local paths or image ids."),
                ], result: postSchema
            ) { params, session in
                post(try diary.create(text: params.string("text"), images: imageInputs(params) ?? []), zone: session.timeZone)
            },
            RPCMethod(
                "diary.get", summary: "A post with all its photos and the detail layout.", params: [idParam],
                result: postSchema
            ) { params, session in
                post(try diary.get(id: params.string("id")!), zone: session.timeZone)
            },
            RPCMethod(
                "diary.update", summary: "Changes the text (null removes it) and/or replaces the photos.",
                params: [
                    idParam, .optional("text", Schema.nullable(Schema.string()), "The new text, or null."),
                    .optional("images", imagesSchema, "The new photos (replacing all of them)."),
                    .optional("ifRevision", Schema.integer(minimum: 1), "Change only if still at this revision."),
                ], result: postSchema
            ) { params, session in
                let text: String?? = params.contains("text") ? .some(params.string("text")) : nil
                return post(
                    try diary.update(
                        id: params.string("id")!, text: text, images: imageInputs(params),
                        ifRevision: params.integer("ifRevision")), zone: session.timeZone)
            },
            RPCMethod(
                "diary.delete", summary: "Deletes a post (its photos too, when nothing else uses them).",
                params: [idParam], result: Schema.deleted
            ) { params, _ in
                let id = params.string("id")!
                try diary.delete(id: id)
                return EntityJSON.deleted(id)
            },
            RPCMethod(
                "diary.list", summary: "Post previews, newest first: date, excerpt, the first two photos' metadata.",
                params: Schema.pageParams, result: Schema.page(of: previewSchema)
            ) { params, session in
                let zone = session.timeZone
                return EntityJSON.page(try diary.list(params.pageRequest)) { write(preview: $1, zone: zone, into: &$0) }
            },
        ]
    }
}
