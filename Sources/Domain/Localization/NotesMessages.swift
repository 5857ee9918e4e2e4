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
        "tooManyUploads": [
            .english: "At most {limit} images can be uploading at once: finish or discard one first",
            .russian: "Одновременно можно загружать не более {limit} изображений: сначала завершите или отмените одну загрузку",
            .japanese: "同時にアップロードできる画像は {limit} 件までです: 先にどれかを完了するか取り消してください",
        ],
        "chunkTooLarge": [
            .english: "{field} is too long for one chunk: at most {limit, plural, one {# byte} other {# bytes}}",
            .russian: "{field}: слишком большая часть загрузки, не более {limit, plural, one {# байта} few {# байт} many {# байт} other {# байта}}",
            .japanese: "{field} は 1 回分として大きすぎます: {limit} バイト以内にしてください",
        ],
        "uploadOffset": [
            .english: "{field} does not follow what arrived: continue from byte {limit}",
            .russian: "{field} не продолжает полученное: продолжайте с байта {limit}",
            .japanese: "{field} が受信済みの内容と続いていません: {limit} バイト目から続けてください",
        ],
        "uploadIncomplete": [
            .english: "The upload is not complete: {limit, plural, one {# byte} other {# bytes}} arrived so far",
            .russian: "Загрузка не завершена: получено {limit, plural, one {# байт} few {# байта} many {# байт} other {# байта}}",
            .japanese: "アップロードが完了していません: これまでに {limit} バイト受信しました",
        ],
        "uploadFinished": [
            .english: "The upload is already finished: use it as uploadId where an image goes",
            .russian: "Загрузка уже завершена: укажите её как uploadId там, где нужно изображение",
            .japanese: "アップロードはすでに完了しています: 画像の代わりに uploadId として使ってください",
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
