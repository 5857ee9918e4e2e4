import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol

/// The "Moments" diary (SPEC §7).
enum DiaryMethods {
    static func methods(store: DataStore) -> [RPCMethod] {
        let diary = store.diary
        let idParam = Required.string("id", Schema.id, "The post's id.")
        // The schema lets a fifth image through so that the domain can answer `tooManyImages` (-32002).
        let imagesSchema = Schema.array(of: ImageInput.schema)
        return [
            RPCMethod(
                "diary.create", summary: "Creates a post dated now: text of any length and/or up to 4 photos.",
                params: [
                    .optional("text", Schema.nullable(Schema.string()), "The text."),
                    .optional(
                        "images", imagesSchema, "Up to 4 photos: base64 data, local paths, image ids or finished uploads."),
                ], result: DiaryPost.schema
            ) { params, session in
                let values = params.array("images") ?? []
                let images = try ImageInput.list(values, session: session)
                let post = try diary.create(text: params.string("text"), images: images)
                session.uploads.remove(ImageInput.uploads(in: values))
                return post.json(zone: session.timeZone)
            },
            RPCMethod(
                "diary.get", summary: "A post with all its photos and the detail layout.", params: [idParam.spec],
                result: DiaryPost.schema
            ) { params, session in
                try diary.get(id: params[idParam]).json(zone: session.timeZone)
            },
            RPCMethod(
                "diary.update", summary: "Changes the text (null removes it) and/or replaces the photos.",
                params: [
                    idParam.spec, .optional("text", Schema.nullable(Schema.string()), "The new text, or null."),
                    .optional("images", imagesSchema, "The new photos (replacing all of them)."),
                    .optional("ifRevision", Schema.integer(minimum: 1), "Change only if still at this revision."),
                ], result: DiaryPost.schema
            ) { params, session in
                let values = params.array("images")
                let post = try diary.update(
                    id: params[idParam], text: params.change("text", params.string),
                    images: try values.map { try ImageInput.list($0, session: session) },
                    ifRevision: params.integer("ifRevision"))
                session.uploads.remove(ImageInput.uploads(in: values ?? []))
                return post.json(zone: session.timeZone)
            },
            .delete(
                "diary.delete", summary: "Deletes a post (its photos too, when nothing else uses them).", id: idParam
            ) { id, _ in try diary.delete(id: id) },
            RPCMethod(
                "diary.list", summary: "Post previews, newest first: date, excerpt, the first two photos' metadata.",
                params: Schema.pageParams, result: Schema.page(of: DiaryPreview.schema)
            ) { params, session in
                let zone = session.timeZone
                return try diary.list(params.pageRequest).json { $0.write(preview: $1, zone: zone) }
            },
        ]
    }
}
