/// Messages shared by every app: not found, revision conflicts, storage failures.
enum CommonMessages {
    static let table: MessageCatalog.Table = [
        "notFound": [
            .english: "No {kind} with id {id}",
            .russian: "Объект «{kind}» с идентификатором {id} не найден",
            .japanese: "ID {id} の {kind} は見つかりません",
        ],
        "revisionConflict": [
            .english: "The item was changed meanwhile: its revision is now {current}",
            .russian: "Объект уже изменён: текущая ревизия {current}",
            .japanese: "項目は既に変更されています: 現在のリビジョンは {current} です",
        ],
        "textTooLarge": [
            .english: "The text takes too much space: at most {limit, plural, one {# byte} other {# bytes}}",
            .russian: "Текст занимает слишком много места: не более {limit, plural, one {# байта} few {# байтов} many {# байтов} other {# байта}}",
            .japanese: "テキストが大きすぎます: {limit} バイト以内にしてください",
        ],
        "characterTooLong": [
            .english: "A character has too many accents or joined parts: at most {limit} per character",
            .russian: "В символе слишком много диакритических знаков или соединённых частей: не более {limit} на символ",
            .japanese: "1 文字に付いた記号や結合部分が多すぎます: 1 文字あたり {limit} 個まで",
        ],
        "indexOutOfRange": [
            .english: "{field} is out of range: it must be between 0 and {limit}",
            .russian: "{field} вне диапазона: допустимо от 0 до {limit}",
            .japanese: "{field} が範囲外です: 0 から {limit} の間で指定してください",
        ],
        "diskFull": [
            .english: "The disk is full; nothing was saved",
            .russian: "Диск заполнен; ничего не сохранено",
            .japanese: "ディスクがいっぱいです。何も保存されていません",
        ],
        "databaseMoved": [
            .english: "The database file was moved, replaced or deleted while Satchel was running; nothing was saved. Restart Satchel",
            .russian: "Файл базы данных перемещён, заменён или удалён во время работы Satchel; ничего не сохранено. Перезапустите Satchel",
            .japanese: "Satchel の実行中にデータベースファイルが移動、置換、または削除されました。何も保存されていません。Satchel を再起動してください",
        ],
        "readOnly": [
            .english: "The database is read-only; nothing was saved",
            .russian: "База данных доступна только для чтения; ничего не сохранено",
            .japanese: "データベースは読み取り専用です。何も保存されていません",
        ],
        "databaseBusy": [
            .english: "The database stayed locked by another process; nothing was saved",
            .russian: "База данных заблокирована другим процессом; ничего не сохранено",
            .japanese: "データベースが他のプロセスにロックされたままです。何も保存されていません",
        ],
        "databaseCorrupt": [
            .english: "The database file is damaged",
            .russian: "Файл базы данных повреждён",
            .japanese: "データベースファイルが破損しています",
        ],
        "ioError": [
            .english: "The database could not be read or written",
            .russian: "Не удалось прочитать или записать базу данных",
            .japanese: "データベースの読み書きができませんでした",
        ],
        "cannotOpen": [
            .english: "The database cannot be opened",
            .russian: "Не удаётся открыть базу данных",
            .japanese: "データベースを開けません",
        ],
        "storageError": [
            .english: "The database failed; nothing was saved",
            .russian: "Ошибка базы данных; ничего не сохранено",
            .japanese: "データベースでエラーが発生しました。何も保存されていません",
        ],
    ]
}
