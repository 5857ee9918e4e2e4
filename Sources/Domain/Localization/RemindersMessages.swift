/// Messages of Reminders.
enum RemindersMessages {
    static let table: MessageCatalog.Table = [
        "emptyTitle": [
            .english: "The title cannot be empty",
            .russian: "Заголовок не может быть пустым",
            .japanese: "タイトルを空にすることはできません",
        ],
        "memoTooLong": [
            .english: "The memo is too long: at most {limit} characters",
            .russian: "Слишком длинная заметка: не более {limit} символов",
            .japanese: "メモが長すぎます: {limit} 文字以内にしてください",
        ],
    ]
}
