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
                "diary.create", title: "Write a diary post",
                summary: "Creates a Moments diary post dated now: text of any length and/or up to 4 photos (base64 data, file paths, stored images' ids or finished uploads). Returns the post with its photos' metadata and layout. -32002 emptyPost with neither, tooManyImages past 4, or an image refused as photos.add refuses it.",
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
                "diary.get", title: "Read a diary post",
                summary: "Reads one diary post by its id: its text, date, all its photos' metadata and the detail layout. -32001 when no post has that id.",
                params: [idParam.spec],
                result: DiaryPost.schema
            ) { params, session in
                try diary.get(id: params[idParam]).json(zone: session.timeZone)
            },
            RPCMethod(
                "diary.update", title: "Edit a diary post",
                summary: "Changes a diary post's text (null removes it) and/or replaces all its photos. Returns the post; -32001 when no post has that id; -32002 when it would end empty; -32006 when `ifRevision` is no longer its revision.",
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
                "diary.delete", title: "Delete a diary post",
                summary: "Deletes a diary post, and its photos when nothing else uses them. Returns {id, deleted: true}; -32001 when no post has that id.",
                id: idParam
            ) { id, _ in try diary.delete(id: id) },
            RPCMethod(
                "diary.list", title: "List diary posts",
                summary: "Lists diary post previews, newest first, a page at a time: date, an excerpt and the first two photos' metadata. Returns {items, nextCursor}; pass `nextCursor` as `cursor` for the next page.",
                params: Schema.pageParams, result: Schema.page(of: DiaryPreview.schema)
            ) { params, session in
                let zone = session.timeZone
                return try diary.list(params.pageRequest).json { $0.write(preview: $1, zone: zone) }
            },
        ]
    }
}
