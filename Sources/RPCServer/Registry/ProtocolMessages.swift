import Domain

/// Messages of JSON-RPC and the server itself (parse errors, unknown methods, params): the protocol's
/// wording lives here, beside the errors that use it; the domain's is in ``MessageCatalog``.
enum ProtocolMessages {
    /// Every message a response may carry: these, then the domain's.
    static let all: MessageCatalog.Table = table.merging(MessageCatalog.all) { mine, _ in mine }

    /// The message for `key` in `language`, its arguments filled in.
    static func text(_ key: MessageKey, _ language: Language, arguments: [String: String] = [:]) -> String {
        MessageCatalog.text(key, language, arguments: arguments, from: all)
    }

    static let table: MessageCatalog.Table = [
        "parseError": [
            .english: "Parse error: the message is not valid JSON in UTF-8",
            .russian: "Ошибка разбора: сообщение не является корректным JSON в UTF-8",
            .japanese: "解析エラー: メッセージが UTF-8 の正しい JSON ではありません",
        ],
        "invalidRequest": [
            .english: "Invalid request",
            .russian: "Некорректный запрос",
            .japanese: "無効なリクエストです",
        ],
        "messageTooLarge": [
            .english: "Invalid request: the message is longer than {limit, plural, one {# byte} other {# bytes}}",
            .russian: "Некорректный запрос: сообщение длиннее {limit, plural, one {# байта} few {# байт} many {# байт} other {# байта}}",
            .japanese: "無効なリクエスト: メッセージが {limit} バイトを超えています",
        ],
        "tooDeep": [
            .english: "Invalid request: JSON is nested deeper than {limit, plural, one {# level} other {# levels}}",
            .russian: "Некорректный запрос: вложенность JSON глубже {limit, plural, one {# уровня} few {# уровней} many {# уровней} other {# уровня}}",
            .japanese: "無効なリクエスト: JSON の入れ子が {limit} 階層を超えています",
        ],
        "tooComplex": [
            .english: "Invalid request: the message holds too many values to parse in {limit, plural, one {# byte} other {# bytes}} of memory",
            .russian: "Некорректный запрос: в сообщении слишком много значений, чтобы разобрать его в {limit, plural, one {# байт} few {# байта} many {# байт} other {# байта}} памяти",
            .japanese: "無効なリクエスト: メッセージの値が多すぎて {limit} バイトのメモリでは解析できません",
        ],
        "emptyBatch": [
            .english: "Invalid request: a batch must not be empty",
            .russian: "Некорректный запрос: пакет не может быть пустым",
            .japanese: "無効なリクエスト: バッチを空にすることはできません",
        ],
        "batchTooLarge": [
            .english: "Invalid request: a batch may hold at most {limit, plural, one {# entry} other {# entries}}",
            .russian: "Некорректный запрос: пакет может содержать не более {limit, plural, one {# элемента} few {# элементов} many {# элементов} other {# элемента}}",
            .japanese: "無効なリクエスト: バッチに含められるのは {limit} 件までです",
        ],
        "methodNotFound": [
            .english: "Method not found: {method}",
            .russian: "Метод не найден: {method}",
            .japanese: "メソッドが見つかりません: {method}",
        ],
        "invalidParams": [
            .english: "Invalid params: {field} must be {expected}",
            .russian: "Некорректные параметры: {field} должно быть {expected}",
            .japanese: "無効なパラメーター: {field} は {expected} である必要があります",
        ],
        "unknownParam": [
            .english: "Invalid params: unknown parameter {field}",
            .russian: "Некорректные параметры: неизвестный параметр {field}",
            .japanese: "無効なパラメーター: 不明なパラメーター {field}",
        ],
        "missingParam": [
            .english: "Invalid params: {field} is required",
            .russian: "Некорректные параметры: параметр {field} обязателен",
            .japanese: "無効なパラメーター: {field} は必須です",
        ],
        "tooManyParams": [
            .english: "Invalid params: at most {limit, plural, one {# positional parameter} other {# positional parameters}}",
            .russian: "Некорректные параметры: не более {limit, plural, one {# позиционного параметра} few {# позиционных параметров} many {# позиционных параметров} other {# позиционного параметра}}",
            .japanese: "無効なパラメーター: 位置パラメーターは {limit} 個までです",
        ],
        "internalError": [
            .english: "Internal error",
            .russian: "Внутренняя ошибка",
            .japanese: "内部エラー",
        ],
        "shuttingDown": [
            .english: "The server is shutting down",
            .russian: "Сервер завершает работу",
            .japanese: "サーバーはシャットダウン中です",
        ],
        "unsupportedProtocolVersion": [
            .english: "Unsupported protocol version {requested}: this server speaks {supported}",
            .russian: "Версия протокола {requested} не поддерживается: сервер поддерживает {supported}",
            .japanese: "プロトコルのバージョン {requested} には対応していません: このサーバーが対応するのは {supported} です",
        ],
        "requestCancelled": [
            .english: "The request was cancelled",
            .russian: "Запрос отменён",
            .japanese: "リクエストはキャンセルされました",
        ],
    ]
}
