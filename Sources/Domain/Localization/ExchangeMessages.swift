/// Messages of export and import.
enum ExchangeMessages {
    static let table: MessageCatalog.Table = [
        "invalidDocument": [
            .english: "The document is not a valid Satchel export: look at {field}",
            .russian: "Документ не является корректным экспортом Satchel: см. {field}",
            .japanese: "Satchel のエクスポートとして正しくない文書です: {field} を確認してください",
        ],
        "notAnExport": [
            .english: "This file is not a Satchel export (the JSON document an export writes); nothing was imported",
            .russian: "Этот файл не является экспортом Satchel (JSON-документом, который записывает экспорт); ничего не импортировано",
            .japanese: "このファイルは Satchel のエクスポート（エクスポートが書き出す JSON 文書）ではありません。何もインポートされていません",
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
            .english: "The export is larger than a message may be ({limit, plural, one {# byte} other {# bytes}}): export into a file with `path`",
            .russian: "Экспорт больше допустимого размера сообщения ({limit, plural, one {# байт} few {# байта} many {# байт} other {# байта}}): экспортируйте в файл с параметром `path`",
            .japanese: "エクスポートがメッセージの上限 ({limit} バイト) を超えます: `path` を指定してファイルにエクスポートしてください",
        ],
        "fileExists": [
            .english: "A file is already there; nothing was written. Choose another name, or pass overwrite: true to replace it",
            .russian: "Такой файл уже есть; ничего не записано. Выберите другое имя или передайте overwrite: true, чтобы заменить его",
            .japanese: "同じ名前のファイルがすでにあります。何も書き込まれていません。別の名前にするか、置き換える場合は overwrite: true を指定してください",
        ],
        "noFileAccess": [
            .english: "{field}: no folder is open to this client's tools (its MCP roots, or for a client without roots, satchel's --files-root), so they reach no files. Declare a root that holds the file, start satchel with --files-root set to its folder, or pass the data itself (an import's document, an image's base64 data)",
            .russian: "{field}: инструментам этого клиента не открыта ни одна папка (его корни MCP или, для клиента без корней, --files-root сервера satchel), поэтому файлы им недоступны. Объявите корень, в котором лежит файл, запустите satchel с --files-root, указав его папку, или передайте сами данные (документ импорта, base64-данные изображения)",
            .japanese: "{field}: このクライアントのツールに開かれたフォルダーがありません (MCP のルート、またはルートのないクライアントでは satchel の --files-root)。そのためファイルを使えません。ファイルを含むルートを宣言するか、そのフォルダーを --files-root に指定して satchel を起動するか、データそのもの (インポートの document、画像の base64 データ) を渡してください",
        ],
        "outsideClientRoots": [
            .english: "{field} is outside the folders this client declared (MCP roots); links and .. are followed before the check. Use a path inside one of them, or declare its folder as a root",
            .russian: "{field} находится вне папок, объявленных клиентом (корни MCP); ссылки и .. учитываются до проверки. Укажите путь внутри одной из них или объявите её папку корнем",
            .japanese: "{field} はこのクライアントが宣言したフォルダー (MCP のルート) の外にあります。リンクと .. はたどってから確認します。いずれかのフォルダー内のパスを使うか、そのフォルダーをルートとして宣言してください",
        ],
        "outsideFilesRoot": [
            .english: "{field} is outside the folders this server may use (--files-root); links and .. are followed before the check",
            .russian: "{field} находится вне папок, доступных серверу (--files-root); ссылки и .. учитываются до проверки",
            .japanese: "{field} はこのサーバーが使えるフォルダー (--files-root) の外にあります。リンクと .. はたどってから確認します",
        ],
    ]
}
