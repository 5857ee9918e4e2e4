/// Messages of the chat Message list and its upstream feed.
enum MessagesMessages {
    static let table: MessageCatalog.Table = [
        "emptyMessage": [
            .english: "A message cannot be empty",
            .russian: "Сообщение не может быть пустым",
            .japanese: "メッセージを空にすることはできません",
        ],
        "messageTooLong": [
            .english: "The message is too long: at most {limit, plural, one {# character} other {# characters}}",
            .russian: "Слишком длинное сообщение: не более {limit, plural, one {# символа} few {# символов} many {# символов} other {# символа}}",
            .japanese: "メッセージが長すぎます: {limit} 文字以内にしてください",
        ],
        "connectionFailed": [
            .english: "The message server cannot be reached; nothing was loaded",
            .russian: "Сервер сообщений недоступен; ничего не загружено",
            .japanese: "メッセージサーバーに接続できません。何も読み込まれていません",
        ],
        "timeout": [
            .english: "The message server did not answer in time; nothing was loaded",
            .russian: "Сервер сообщений не ответил вовремя; ничего не загружено",
            .japanese: "メッセージサーバーが時間内に応答しませんでした。何も読み込まれていません",
        ],
        "httpStatus": [
            .english: "The message server answered with an error; nothing was loaded",
            .russian: "Сервер сообщений ответил ошибкой; ничего не загружено",
            .japanese: "メッセージサーバーがエラーを返しました。何も読み込まれていません",
        ],
        "malformedResponse": [
            .english: "The message server sent something unreadable; nothing was loaded",
            .russian: "Сервер сообщений прислал некорректный ответ; ничего не загружено",
            .japanese: "メッセージサーバーの応答を読み取れません。何も読み込まれていません",
        ],
        "responseTooLarge": [
            .english: "The message server sent far more than was asked for; nothing was loaded",
            .russian: "Сервер сообщений прислал намного больше, чем запрошено; ничего не загружено",
            .japanese: "メッセージサーバーが要求よりはるかに多くのデータを送りました。何も読み込まれていません",
        ],
        "invalidMessage": [
            .english: "The message server sent a message that breaks the rules; nothing was loaded",
            .russian: "Сервер сообщений прислал недопустимое сообщение; ничего не загружено",
            .japanese: "メッセージサーバーが規則に反するメッセージを送りました。何も読み込まれていません",
        ],
    ]
}
