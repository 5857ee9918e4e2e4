/// Messages of the board.
enum BoardMessages {
    static let table: MessageCatalog.Table = [
        "voterRequired": [
            .english: "Clearing a vote needs the voter whose vote it is",
            .russian: "Чтобы отменить голос, укажите, чей это голос",
            .japanese: "投票を取り消すには投票者の指定が必要です",
        ]
    ]
}
