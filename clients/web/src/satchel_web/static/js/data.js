// @ts-check
// Data: everything exported to a file the browser downloads, and a file from disk imported (merge, or replace
// after a confirmation), with a progress bar. The bridge moves the file; the page never holds the document.
import { extend, language, t } from './i18n.js';
import { RpcError } from './rpc.js';
import { confirmDialog, errorLine, h, openDialog, showError } from './ui.js';

extend({
  en: {
    data: 'Data', dataTitle: 'Export and import', exportTitle: 'Export', importTitle: 'Import',
    exportHint: 'Everything in Satchel (the five apps and their photos) in one JSON file, to keep or to import again.',
    exportButton: 'Export to a file', importHint: 'A file exported from Satchel.', chooseFile: 'Choose a file…',
    noFile: 'No file chosen', importMode: 'How to import', merge: 'Merge',
    mergeHint: 'adds what is not in Satchel yet; nothing is deleted', replace: 'Replace',
    replaceHint: 'Satchel becomes exactly the file; everything not in it is deleted', importButton: 'Import',
    replaceQuestion: 'Replace everything in Satchel with “{name}”? Notes, photos, moments, reminders, messages and board posts that are not in the file will be deleted.',
    replaceYes: 'Replace everything', progress: 'Progress', exportStarting: 'Exporting…',
    exporting: 'Exporting… {done} of {total}', uploading: 'Sending the file… {done} of {total}',
    importStarting: 'Importing…', importing: 'Importing… {done} of {total}', exportDone: 'Export finished',
    importDone: 'Import finished', failed: 'Stopped',
    exported: 'Items exported: {items} ({size}). Your browser saves {name} with your downloads.',
    imported: 'Items imported: {items}.', importedNothing: 'Nothing to import: everything in the file is already in Satchel.',
    unchanged: 'Nothing was changed.', tooLarge: 'The file is larger than {limit}, the most an import takes.',
    uploadFailed: 'The file could not be sent to Satchel.',
    countNotes: 'Notes', countPhotos: 'Photos', countDiary: 'Moments', countReminders: 'Reminders',
    countMessages: 'Messages', countBoard: 'Board posts', countImages: 'Images',
  },
  ru: {
    data: 'Данные', dataTitle: 'Экспорт и импорт', exportTitle: 'Экспорт', importTitle: 'Импорт',
    exportHint: 'Всё, что есть в Satchel (пять приложений и их фото), в одном файле JSON: чтобы сохранить или импортировать снова.',
    exportButton: 'Экспортировать в файл', importHint: 'Файл, экспортированный из Satchel.', chooseFile: 'Выбрать файл…',
    noFile: 'Файл не выбран', importMode: 'Как импортировать', merge: 'Объединить',
    mergeHint: 'добавляет то, чего ещё нет в Satchel; ничего не удаляется', replace: 'Заменить',
    replaceHint: 'Satchel станет в точности как файл; всё, чего в нём нет, удаляется', importButton: 'Импортировать',
    replaceQuestion: 'Заменить всё в Satchel содержимым «{name}»? Заметки, фото, моменты, напоминания, сообщения и записи доски, которых нет в файле, будут удалены.',
    replaceYes: 'Заменить всё', progress: 'Ход выполнения', exportStarting: 'Экспорт…',
    exporting: 'Экспорт… {done} из {total}', uploading: 'Отправка файла… {done} из {total}',
    importStarting: 'Импорт…', importing: 'Импорт… {done} из {total}', exportDone: 'Экспорт завершён',
    importDone: 'Импорт завершён', failed: 'Остановлено',
    exported: 'Экспортировано объектов: {items} ({size}). Браузер сохранит {name} в загрузки.',
    imported: 'Импортировано объектов: {items}.', importedNothing: 'Импортировать нечего: всё из файла уже есть в Satchel.',
    unchanged: 'Ничего не изменилось.', tooLarge: 'Файл больше {limit}: это наибольший размер для импорта.',
    uploadFailed: 'Не удалось отправить файл в Satchel.',
    countNotes: 'Заметки', countPhotos: 'Фото', countDiary: 'Моменты', countReminders: 'Напоминания',
    countMessages: 'Сообщения', countBoard: 'Записи доски', countImages: 'Изображения',
  },
  ja: {
    data: 'データ', dataTitle: 'エクスポートとインポート', exportTitle: 'エクスポート', importTitle: 'インポート',
    exportHint: 'Satchel のすべて（5 つのアプリとその写真）を 1 つの JSON ファイルにします。保存しておくことも、もう一度インポートすることもできます。',
    exportButton: 'ファイルにエクスポート', importHint: 'Satchel からエクスポートしたファイル。', chooseFile: 'ファイルを選択…',
    noFile: 'ファイルが選択されていません', importMode: 'インポートの方法', merge: '統合',
    mergeHint: 'Satchel にまだないものを追加します。何も削除されません', replace: '置き換え',
    replaceHint: 'Satchel をファイルとまったく同じ内容にします。ファイルにないものはすべて削除されます', importButton: 'インポート',
    replaceQuestion: 'Satchel のすべてを「{name}」で置き換えますか？ ファイルにないノート、写真、モーメント、リマインダー、メッセージ、掲示板の投稿は削除されます。',
    replaceYes: 'すべて置き換える', progress: '進行状況', exportStarting: 'エクスポート中…',
    exporting: 'エクスポート中… {done} / {total} 件', uploading: 'ファイルを送信中… {done} / {total}',
    importStarting: 'インポート中…', importing: 'インポート中… {done} / {total} 件', exportDone: 'エクスポート完了',
    importDone: 'インポート完了', failed: '中止しました',
    exported: '{items} 件（{size}）をエクスポートしました。{name} はブラウザーのダウンロードに保存されます。',
    imported: '{items} 件をインポートしました。', importedNothing: 'インポートするものはありません。ファイルの内容はすべて Satchel にあります。',
    unchanged: '何も変更されていません。', tooLarge: 'ファイルが {limit} を超えています。インポートできる最大サイズです。',
    uploadFailed: 'ファイルを Satchel に送信できませんでした。',
    countNotes: 'ノート', countPhotos: '写真', countDiary: 'モーメント', countReminders: 'リマインダー',
    countMessages: 'メッセージ', countBoard: '掲示板の投稿', countImages: '画像',
  },
});

// What an export or an import counts, in the order the apps' tabs show them.
const KINDS = [['notes', 'countNotes'], ['photos', 'countPhotos'], ['diary', 'countDiary'],
  ['reminders', 'countReminders'], ['messages', 'countMessages'], ['board', 'countBoard'], ['images', 'countImages']];

function number(value) { return new Intl.NumberFormat(language()).format(value); }

/** `27013` as "27 kB" in the page's language. */
export function formatBytes(bytes) {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'];
  let index = 0;
  let value = bytes;
  while (value >= 1000 && index < units.length - 1) { value /= 1000; index += 1; }
  return new Intl.NumberFormat(language(), { style: 'unit', unit: units[index], unitDisplay: 'short',
    maximumFractionDigits: index && value < 100 ? 1 : 0 }).format(value);
}

/** Sends `file` to the bridge (`POST /data/imports`, streamed from disk); resolves to `{upload, bytes}`. */
function upload(file, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/data/imports');
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size));
    request.addEventListener('load', () => {
      if (request.status === 200 && request.response?.upload) resolve(request.response);
      else if (request.status === 413) reject(new Error(t('tooLarge', { limit: formatBytes(request.response?.limit ?? 0) })));
      else reject(new Error(t('uploadFailed')));
    });
    request.addEventListener('error', () => reject(new Error(t('uploadFailed'))));
    request.send(file);
  });
}

/** Has the browser download `url` as `name` (the bridge sends it as an attachment, then deletes it). */
function download(url, name) {
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
}

/** The progress bar, its label and its percentage. */
function progressBar() {
  const label = h('span', { class: 'data-progress-label', id: 'data-progress-label' });
  const percent = h('span', { class: 'data-progress-percent', 'aria-hidden': 'true' });
  const bar = h('progress', { class: 'data-progress-bar', max: 100, 'aria-labelledby': 'data-progress-label' });
  const element = h('div', { class: 'data-progress', hidden: true }, h('div', { class: 'data-progress-line' }, label, percent), bar);
  return {
    element,
    /** Shows `text` and `done` of `total` (no total: a bar that only says it is busy). */
    set(text, done, total) {
      element.hidden = false;
      delete element.dataset.state;
      label.textContent = text;
      if (total > 0) {
        const fraction = Math.min(1, done / total);
        bar.value = Math.round(fraction * 100);
        bar.setAttribute('aria-valuetext', `${text} ${bar.value}%`);
        percent.textContent = new Intl.NumberFormat(language(), { style: 'percent' }).format(Math.floor(fraction * 100) / 100);
      } else {
        bar.removeAttribute('value');
        bar.removeAttribute('aria-valuetext');
        percent.textContent = '';
      }
    },
    finish(text, state) {
      if (state === 'done') this.set(text, 1, 1);
      else label.textContent = text;
      element.dataset.state = state;
    },
  };
}

function countList(counts) {
  return h('ul', { class: 'data-counts' }, KINDS.filter(([kind]) => counts[kind]).map(([kind, key]) =>
    h('li', { dataset: { kind } }, h('span', {}, t(key)), h('b', {}, number(counts[kind])))));
}

const total = (counts) => Object.values(counts).reduce((sum, count) => sum + count, 0);

/** Opens the data panel: export and import, one at a time, with their progress, result or error. */
function openPanel(rpc) {
  const bar = progressBar();
  const result = h('div', { class: 'data-result', role: 'status' });
  const error = errorLine();
  const picker = h('input', { type: 'file', accept: '.json,application/json', class: 'visually-hidden', id: 'data-file' });
  const fileName = h('span', { class: 'data-file-name muted' }, t('noFile'));
  const exportButton = h('button', { type: 'button', class: 'button primary data-export' }, t('exportButton'));
  const importButton = h('button', { type: 'button', class: 'button primary data-import', disabled: true }, t('importButton'));
  const mode = (value, hint) => h('label', { class: 'data-mode' },
    h('input', { type: 'radio', name: 'data-mode', value, checked: value === 'merge' }),
    h('span', {}, h('b', {}, t(value)), ' — ', h('span', { class: 'muted' }, t(hint))));
  const close = h('button', { type: 'button', class: 'data-close' }, t('close'));
  const panel = h('div', { class: 'data-panel' },
    h('h2', {}, t('dataTitle')),
    h('section', { class: 'data-block' },
      h('h3', {}, t('exportTitle')),
      h('p', { class: 'muted' }, t('exportHint')),
      exportButton),
    h('section', { class: 'data-block' },
      h('h3', {}, t('importTitle')),
      h('p', { class: 'muted' }, t('importHint')),
      h('div', { class: 'data-file' }, h('label', { class: 'button data-choose', for: 'data-file' }, t('chooseFile')), picker, fileName),
      h('fieldset', { class: 'data-modes' }, h('legend', {}, t('importMode')), mode('merge', 'mergeHint'), mode('replace', 'replaceHint')),
      importButton),
    bar.element, result, error,
    h('div', { class: 'actions' }, close));

  let busy = false;
  const buttons = [exportButton, importButton, close];
  function start() {
    busy = true;
    for (const button of buttons) button.disabled = true;
    picker.disabled = true;
    result.replaceChildren();
    showError(error, null);
  }
  function stop() {
    busy = false;
    exportButton.disabled = false;
    close.disabled = false;
    picker.disabled = false;
    importButton.disabled = !picker.files.length;
  }
  function failed(failure, { importing }) {
    bar.finish(t('failed'), 'failed');
    showError(error, failure);
    // A refused import changes nothing; one cut short by a lost connection may have finished meanwhile.
    const refused = !(failure instanceof RpcError) || ![-32098, -32099, -32603].includes(failure.code);
    if (importing && refused) error.append(h('span', { class: 'data-unchanged' }, t('unchanged')));
  }

  exportButton.addEventListener('click', async () => {
    start();
    bar.set(t('exportStarting'));
    try {
      const answer = await rpc.call('bridge/export', {}, {
        onProgress: ({ progress, total: all, message }) => bar.set(message || t('exporting', { done: number(progress), total: number(all ?? 0) }), progress, all),
      });
      bar.finish(t('exportDone'), 'done');
      const said = t('exported', { items: number(total(answer.counts)), size: formatBytes(answer.bytes), name: '\u0000' });
      const [before, after] = said.split('\u0000'); // the file's name in one piece: its hyphens do not break the line
      result.append(h('p', {}, before, h('span', { class: 'data-name' }, answer.name), after), countList(answer.counts));
      download(answer.url, answer.name);
    } catch (failure) {
      failed(failure, { importing: false });
    } finally {
      stop();
    }
  });

  picker.addEventListener('change', () => {
    fileName.textContent = picker.files[0]?.name ?? t('noFile');
    importButton.disabled = !picker.files.length;
  });

  importButton.addEventListener('click', async () => {
    const file = picker.files[0];
    const chosen = panel.querySelector('input[name="data-mode"]:checked').value;
    if (!file) return;
    if (chosen === 'replace' && !(await confirmDialog(t('replaceQuestion', { name: file.name }), t('replaceYes'), t('cancel')))) return;
    start();
    try {
      bar.set(t('uploading', { done: formatBytes(0), total: formatBytes(file.size) }), 0, file.size);
      const sent = await upload(file, (done, all) => bar.set(t('uploading', { done: formatBytes(done), total: formatBytes(all) }), done, all));
      bar.set(t('importStarting'));
      const { imported } = await rpc.call('bridge/import', { upload: sent.upload, mode: chosen }, {
        onProgress: ({ progress, total: all, message }) => bar.set(message || t('importing', { done: number(progress), total: number(all ?? 0) }), progress, all),
      });
      bar.finish(t('importDone'), 'done');
      const items = total(imported);
      result.append(h('p', {}, items ? t('imported', { items: number(items) }) : t('importedNothing')), countList(imported));
    } catch (failure) {
      failed(failure, { importing: true });
    } finally {
      stop();
    }
  });

  const closed = openDialog(panel, { label: t('dataTitle'), className: 'data-sheet' });
  const dialog = panel.closest('dialog');
  dialog.addEventListener('cancel', (event) => { if (busy) event.preventDefault(); }); // Escape waits for the end
  close.addEventListener('click', () => dialog.close());
  exportButton.focus();
  return closed;
}

/** The header's Data button opens the panel. */
/**
 * Mounts the data panel on its header `button`.
 * @param {HTMLElement} button
 * @param {import('./types.js').Context} context
 */
export function mount(button, { rpc }) {
  button.addEventListener('click', () => openPanel(rpc));
}
