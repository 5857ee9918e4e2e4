/// Messages of the "Moments" diary.
enum DiaryMessages {
    static let table: MessageCatalog.Table = [
        "emptyPost": [
            .english: "A post needs some text or at least one photo",
            .russian: "В посте должен быть текст или хотя бы одна фотография",
            .japanese: "投稿にはテキストか写真が少なくとも 1 つ必要です",
        ],
        "tooManyImages": [
            .english: "A post holds at most {limit, plural, one {# photo} other {# photos}}",
            .russian: "В посте может быть не более {limit, plural, one {# фотографии} few {# фотографий} many {# фотографий} other {# фотографии}}",
            .japanese: "投稿に添付できる写真は {limit} 枚までです",
        ],
    ]
}
