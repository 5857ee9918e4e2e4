/// Messages of ENotes and of images.
enum NotesMessages {
    static let table: MessageCatalog.Table = [
        "titleTooLong": [
            .english: "The title is too long: at most {limit, plural, one {# character} other {# characters}}",
            .russian: "Слишком длинный заголовок: не более {limit, plural, one {# символа} few {# символов} many {# символов} other {# символа}}",
            .japanese: "タイトルが長すぎます: {limit} 文字以内にしてください",
        ],
        "contentTooLong": [
            .english: "The text is too long: at most {limit, plural, one {# character} other {# characters}}",
            .russian: "Слишком длинный текст: не более {limit, plural, one {# символа} few {# символов} many {# символов} other {# символа}}",
            .japanese: "本文が長すぎます: {limit} 文字以内にしてください",
        ],
        "emptyNote": [
            .english: "A note needs a title or some text",
            .russian: "У заметки должен быть заголовок или текст",
            .japanese: "ノートにはタイトルか本文が必要です",
        ],
        "invalidColor": [
            .english: "{field} must be a number from 0 to 1",
            .russian: "{field} должно быть числом от 0 до 1",
            .japanese: "{field} は 0 から 1 の数値である必要があります",
        ],
        "captionTooLong": [
            .english: "The caption is too long: at most {limit, plural, one {# character} other {# characters}}",
            .russian: "Слишком длинная подпись: не более {limit, plural, one {# символа} few {# символов} many {# символов} other {# символа}}",
            .japanese: "キャプションが長すぎます: {limit} 文字以内にしてください",
        ],
        "freeLimitReached": [
            .english: "The free edition holds at most {limit, plural, one {# note} other {# notes}}",
            .russian: "Бесплатная версия вмещает не более {limit, plural, one {# заметки} few {# заметок} many {# заметок} other {# заметки}}",
            .japanese: "無料版で保存できるノートは {limit} 件までです",
        ],
        "unsupportedImage": [
            .english: "{field} is not a PNG, JPEG, GIF, WebP or HEIC/HEIF image",
            .russian: "{field}: это не изображение PNG, JPEG, GIF, WebP или HEIC/HEIF",
            .japanese: "{field} は PNG、JPEG、GIF、WebP、HEIC/HEIF の画像ではありません",
        ],
        "imageTooLarge": [
            .english: "{field} is too large: at most {limit, plural, one {# byte} other {# bytes}}",
            .russian: "{field}: изображение слишком большое, не более {limit, plural, one {# байта} few {# байт} many {# байт} other {# байта}}",
            .japanese: "{field} が大きすぎます: {limit} バイト以内にしてください",
        ],
        "damagedImage": [
            .english: "{field} is damaged or cut short: it cannot be shown",
            .russian: "{field}: изображение повреждено или обрезано, его нельзя показать",
            .japanese: "{field} は壊れているか途中で切れているため表示できません",
        ],
        "imageTooManyPixels": [
            .english: "{field} has too many pixels: at most {limit} megapixels",
            .russian: "{field}: слишком много пикселей, не более {limit} мегапикселей",
            .japanese: "{field} の画素数が多すぎます: {limit} メガピクセル以内にしてください",
        ],
        "invalidBase64": [
            .english: "{field} is not valid base64",
            .russian: "{field}: некорректные данные base64",
            .japanese: "{field} は正しい base64 ではありません",
        ],
        "imagePathNotAbsolute": [
            .english: "{field} must be an absolute path",
            .russian: "{field} должен быть абсолютным путём",
            .japanese: "{field} は絶対パスである必要があります",
        ],
        "imageUnreadable": [
            .english: "{field} does not name a readable regular file",
            .russian: "{field}: файл не найден или недоступен для чтения",
            .japanese: "{field} は読み取り可能な通常ファイルではありません",
        ],
    ]
}
