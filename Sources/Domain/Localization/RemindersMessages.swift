/// Messages of Reminders.
enum RemindersMessages {
    static let table: MessageCatalog.Table = [
        "emptyTitle": [
            .english: "The title cannot be empty",
            .russian: "Заголовок не может быть пустым",
            .japanese: "タイトルを空にすることはできません",
        ],
        "memoTooLong": [
            .english: "The memo is too long: at most {limit, plural, one {# character} other {# characters}}",
            .russian: "Слишком длинная заметка: не более {limit, plural, one {# символа} few {# символов} many {# символов} other {# символа}}",
            .japanese: "メモが長すぎます: {limit} 文字以内にしてください",
        ],
    ]
}
