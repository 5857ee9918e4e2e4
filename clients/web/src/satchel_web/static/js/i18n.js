// @ts-check
// The words of the page itself, in the languages the server speaks (its own messages come translated).

const words = {
  en: {
    moments: 'Moments', reminders: 'Reminders', messages: 'Messages', notes: 'ENotes', board: 'Board',
    search: 'Search', language: 'Language', noResults: 'Nothing found', results: 'Results for “{q}”',
    restarting: 'Satchel stopped and is starting again. What you typed is kept.',
    disconnected: 'The connection to Satchel was lost; trying again…',
    expired: 'Satchel was started again with a new address: open the URL it printed.',
    cancel: 'Cancel', save: 'Save', delete: 'Delete', close: 'Close', create: 'Create', edit: 'Edit', done: 'Done',
    back: 'Back', loadMore: 'Load more', uploadFailed: 'The photo could not be sent to Satchel.',
    uploading: 'Sending the photo',
  },
  ru: {
    moments: 'Моменты', reminders: 'Напоминания', messages: 'Сообщения', notes: 'ENotes', board: 'Доска',
    search: 'Поиск', language: 'Язык', noResults: 'Ничего не найдено', results: 'Результаты для «{q}»',
    restarting: 'Satchel остановился и запускается снова. Введённое сохранено.',
    disconnected: 'Связь с Satchel потеряна; пробуем снова…',
    expired: 'Satchel запущен заново с новым адресом: откройте напечатанную им ссылку.',
    cancel: 'Отмена', save: 'Сохранить', delete: 'Удалить', close: 'Закрыть', create: 'Создать', edit: 'Изменить',
    done: 'Готово', back: 'Назад', loadMore: 'Загрузить ещё',
    uploadFailed: 'Не удалось отправить фото в Satchel.', uploading: 'Фото отправляется',
  },
  ja: {
    moments: 'モーメント', reminders: 'リマインダー', messages: 'メッセージ', notes: 'ENotes', board: '掲示板',
    search: '検索', language: '言語', noResults: '見つかりません', results: '「{q}」の結果',
    restarting: 'Satchel が停止し、再起動しています。入力した内容は残っています。',
    disconnected: 'Satchel との接続が切れました。再接続しています…',
    expired: 'Satchel が新しいアドレスで再起動しました。表示された URL を開いてください。',
    cancel: 'キャンセル', save: '保存', delete: '削除', close: '閉じる', create: '作成', edit: '編集', done: '完了',
    back: '戻る', loadMore: 'さらに読み込む', uploadFailed: '写真を Satchel に送れませんでした。',
    uploading: '写真を送信中',
  },
};

let current = 'en';

export function setLanguage(language) { current = words[language] ? language : 'en'; }
export function language() { return current; }

/** The page's word for `key` in the current language (English when a screen adds a key not yet translated). */
export function t(key, values = {}) {
  const text = words[current][key] ?? words.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');
}

/** Adds a screen's own words: `extend({en: {...}, ru: {...}, ja: {...}})`. */
export function extend(more) {
  for (const [language, table] of Object.entries(more)) Object.assign(words[language], table);
}
