/// Messages of Reminders.
enum RemindersMessages {
    static let table: MessageCatalog.Table = [
        "emptyTitle": [
            .english: "A reminder needs a title (it may be empty only while it is being edited)",
            .russian: "У напоминания должен быть заголовок (пустым он может быть только во время редактирования)",
            .japanese: "リマインダーにはタイトルが必要です (空にできるのは編集中のみです)",
        ],
        "memoTooLong": [
            .english: "The memo is too long: at most {limit} characters",
            .russian: "Слишком длинная заметка: не более {limit} символов",
            .japanese: "メモが長すぎます: {limit} 文字以内にしてください",
        ],
    ]
}
