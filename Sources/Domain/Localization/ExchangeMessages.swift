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
        "invalidPath": [
            .english: "The path cannot be used: it must be absolute; an export goes into an existing folder and replaces only a regular file; an import reads only a regular file",
            .russian: "Этот путь нельзя использовать: он должен быть абсолютным; экспорт пишется в существующую папку и заменяет только обычный файл; импорт читает только обычный файл",
            .japanese: "このパスは使えません: 絶対パスが必要です。エクスポートは既存のフォルダーに書き込み、通常のファイルだけを置き換えます。インポートは通常のファイルだけを読みます",
        ],
        "exportTooLarge": [
            .english: "The export is larger than a message may be ({limit} bytes): export into a file with `path`",
            .russian: "Экспорт больше допустимого размера сообщения ({limit} байт): экспортируйте в файл с параметром `path`",
            .japanese: "エクスポートがメッセージの上限 ({limit} バイト) を超えます: `path` を指定してファイルにエクスポートしてください",
        ],
    ]
}
