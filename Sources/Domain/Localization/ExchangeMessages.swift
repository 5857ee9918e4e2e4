/// Messages of export and import.
enum ExchangeMessages {
    static let table: MessageCatalog.Table = [
        "invalidDocument": [
            .english: "The document is not a valid Satchel export: look at {field}",
            .russian: "Документ не является корректным экспортом Satchel: см. {field}",
            .japanese: "Satchel のエクスポートとして正しくない文書です: {field} を確認してください",
        ],
        "unsupportedVersion": [
            .english: "The document was written by a newer Satchel (format version above {limit}); nothing was imported",
            .russian: "Документ создан более новой версией Satchel (версия формата выше {limit}); ничего не импортировано",
            .japanese: "文書は新しい Satchel で作成されています (形式バージョン {limit} より新しい)。何もインポートされていません",
        ],
    ]
}
