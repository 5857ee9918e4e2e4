// @ts-check
// What went wrong with a picked photo, in the person's words and naming the file. The server words its
// refusals for programs, with the field at fault (`images[0]`, `uploadId`); the page says them from their
// reason instead, in its language, and says them again when the language changes (`say`, kept by showError).
import { extend, language, t } from './i18n.js';

extend({
  en: {
    'photo.unsupported': '“{name}” is not a photo Satchel can read: it takes PNG, JPEG, GIF, WebP and HEIC.',
    'photo.damaged': '“{name}” can\'t be read: the file is damaged or cut short.',
    'photo.tooLarge': '“{name}” is too large: a photo can be at most {size}.',
    'photo.tooManyPixels': '“{name}” has too many pixels: at most {limit} megapixels.',
    'photo.empty': '“{name}” is empty.',
    'photo.busy': '“{name}” waits for other photos being sent: try it again in a moment.',
    'photo.notSent': '“{name}” could not be sent to Satchel: try again.',
    'photo.failed': '“{name}” could not be added.',
    'photo.dismiss': 'Dismiss: {name}',
  },
  ru: {
    'photo.unsupported': '«{name}» — не фотография, которую Satchel может прочитать: подходят PNG, JPEG, GIF, WebP и HEIC.',
    'photo.damaged': 'Не удаётся прочитать «{name}»: файл повреждён или обрезан.',
    'photo.tooLarge': '«{name}» слишком большой: фото может занимать не больше {size}.',
    'photo.tooManyPixels': 'В «{name}» слишком много пикселей: не больше {limit} Мп.',
    'photo.empty': 'Файл «{name}» пуст.',
    'photo.busy': '«{name}» ждёт, пока отправятся другие фото: попробуйте ещё раз чуть позже.',
    'photo.notSent': 'Не удалось отправить «{name}» в Satchel: попробуйте ещё раз.',
    'photo.failed': 'Не удалось добавить «{name}».',
    'photo.dismiss': 'Убрать: {name}',
  },
  ja: {
    'photo.unsupported': '「{name}」は Satchel で読める写真ではありません（PNG、JPEG、GIF、WebP、HEIC に対応）。',
    'photo.damaged': '「{name}」を読み込めません。ファイルが壊れているか、途中で切れています。',
    'photo.tooLarge': '「{name}」は大きすぎます。写真は {size} までです。',
    'photo.tooManyPixels': '「{name}」は画素数が多すぎます。{limit} メガピクセルまでです。',
    'photo.empty': '「{name}」は空のファイルです。',
    'photo.busy': '「{name}」は他の写真の送信を待っています。少し待ってからもう一度お試しください。',
    'photo.notSent': '「{name}」を Satchel に送れませんでした。もう一度お試しください。',
    'photo.failed': '「{name}」を追加できませんでした。',
    'photo.dismiss': '閉じる: {name}',
  },
});

/** The page's words for each reason a photo is refused (the server's, and the bridge's own). */
const WORDS = {
  unsupportedImage: 'photo.unsupported',
  damagedImage: 'photo.damaged',
  imageTooLarge: 'photo.tooLarge',
  imageTooManyPixels: 'photo.tooManyPixels',
  lengthRequired: 'photo.empty', // the bridge's: a file of no bytes says no length
  tooManyUploads: 'photo.busy',
  notReady: 'photo.notSent', // the bridge's: this page's satchel is starting again
  notSent: 'photo.notSent', // the browser's: the bridge could not be reached
  serverRestarted: 'photo.notSent',
  disconnected: 'photo.notSent',
};

/** `bytes` as a person reads a size, in the page's language ("20 MB"). */
function megabytes(bytes) {
  return new Intl.NumberFormat(language(), { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 })
    .format(bytes / 1048576);
}

/**
 * `failure`, a refusal of the photo the person knows as `name` (its file's name), in the page's words: an
 * error of the same code, reason and data whose `say()` words it in the current language. A failure that is
 * not about the photo (the free edition's limit) keeps the server's words, which name no field.
 * @param {any} failure
 * @param {string} name
 */
export function photoError(failure, name) {
  const data = failure?.data ?? {};
  const reason = failure?.reason ?? data.reason;
  const key = WORDS[reason] ?? (data.field || data.kind === 'upload' ? 'photo.failed' : null);
  if (!key) return failure;
  const say = () => t(key, { name, limit: data.limit ?? '', size: data.limit ? megabytes(data.limit) : '' });
  return Object.assign(new Error(say()), { code: failure.code ?? 0, data: failure.data ?? null, reason, say });
}

/** The index of the photo `failure` is about in a request's `images` (`images[2]` → 2), or -1. */
export function imageIndex(failure) {
  const match = /^images\[(\d+)\]/.exec(String(failure?.data?.field ?? ''));
  return match ? Number(match[1]) : -1;
}
