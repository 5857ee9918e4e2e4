// @ts-check
// One reminder's row: its elements, what the server says of it besides its text (completion, memo shown,
// being edited), taking a newer answer in without losing what the person typed, and what it says of a change
// made elsewhere while the person was in it (deleted, or changed to other words), in words of its own.
import { extend, t } from './i18n.js';
import { icon } from './icons.js';
import { errorLine, h } from './ui.js';

extend({
  en: {
    'reminders.title': 'Title',
    'reminders.memo': 'Notes',
    'reminders.complete': 'Completed: {title}',
    'reminders.delete': 'Delete “{title}”',
    'reminders.move': 'Move “{title}” (Alt+Arrow Up or Down)',
    'reminders.gone': 'This reminder was deleted somewhere else while you were in it.',
    'reminders.keepAsNew': 'Keep mine as a new one',
    'reminders.discard': 'Discard',
    'reminders.changed': 'This reminder was changed somewhere else to “{title}” while you were in it.',
    'reminders.keepMine': 'Keep mine',
    'reminders.takeTheirs': 'Use the other',
  },
  ru: {
    'reminders.title': 'Название',
    'reminders.memo': 'Заметки',
    'reminders.complete': 'Выполнено: {title}',
    'reminders.delete': 'Удалить «{title}»',
    'reminders.move': 'Переместить «{title}» (Alt+стрелка вверх или вниз)',
    'reminders.gone': 'Пока вы были в этом напоминании, его удалили в другом месте.',
    'reminders.keepAsNew': 'Сохранить моё как новое',
    'reminders.discard': 'Отбросить',
    'reminders.changed': 'Пока вы были в этом напоминании, его изменили в другом месте на «{title}».',
    'reminders.keepMine': 'Оставить моё',
    'reminders.takeTheirs': 'Взять другое',
  },
  ja: {
    'reminders.title': 'タイトル',
    'reminders.memo': 'メモ',
    'reminders.complete': '完了: {title}',
    'reminders.delete': '「{title}」を削除',
    'reminders.move': '「{title}」を移動（Alt+上下矢印）',
    'reminders.gone': '編集中に、このリマインダーが別の場所で削除されました。',
    'reminders.keepAsNew': '自分の版を新しく保存',
    'reminders.discard': '破棄',
    'reminders.changed': '編集中に、このリマインダーが別の場所で「{title}」に変更されました。',
    'reminders.keepMine': '自分の版を残す',
    'reminders.takeTheirs': 'もう一方を使う',
  },
});

/** What the row is called: its title as typed, or "New Reminder" while blank. */
export const label = (row) => row.title.value.trim() || t('reminders.new');

/** Whether the person typed in the row since the server last saved it. */
export const unsaved = (row) => row.edits !== row.savedEdits;

/** A reminder's words as one string, to tell two versions apart. */
export const textOf = (title, memo) => JSON.stringify([title, memo ?? '']);

/**
 * A row for `item`; its circle calls `toggle(row)`, its bin `remove(row)`; when the reminder changed elsewhere
 * (`showNotice`), the notice's buttons call `keep(row)` (what the person typed) and `theirs(row)` (the other
 * side: deleted, or its words).
 */
export function makeRow(item, { toggle, remove, keep, theirs, editingId }) {
  const row = {
    id: item.id, server: item, edits: 0, sentEdits: 0, savedEdits: 0, timer: null, failed: false,
    sent: [], // the words of the saves not answered yet: the list may show them before their answers come
    notice: null, // 'deleted' or 'changed' (to `row.theirs`) elsewhere while the person was in the row
    deleted: false,
    theirs: null,
    keptTitle: '', // the last title the server had that was not blank: what Undo gives back
  };
  row.check = h('button', { type: 'button', class: 'rem-check' }, h('span', { class: 'rem-circle', 'aria-hidden': 'true' }));
  row.title = h('input', { type: 'text', class: 'rem-field rem-title', autocomplete: 'off', enterkeyhint: 'next' });
  row.memo = h('input', { type: 'text', class: 'rem-field rem-memo', autocomplete: 'off' });
  row.error = errorLine();
  row.remove = h('button', { type: 'button', class: 'rem-delete' }, icon('trash'));
  row.handle = h('button', { type: 'button', class: 'rem-handle', draggable: 'true', 'aria-keyshortcuts': 'Alt+ArrowUp Alt+ArrowDown' }, icon('grip'));
  row.goneText = h('span', { class: 'rem-gone-text' });
  row.keep = h('button', { type: 'button', class: 'rem-keep', onclick: () => keep(row) });
  row.theirsButton = h('button', { type: 'button', class: 'rem-theirs', onclick: () => theirs(row) });
  row.gone = h('div', { class: 'rem-gone', role: 'alert', hidden: true }, row.goneText, h('span', { class: 'rem-gone-actions' }, row.keep, row.theirsButton));
  row.li = h('li', { class: 'rem-row', dataset: { id: item.id } },
    row.check, h('div', { class: 'rem-body' }, row.title, row.memo, row.error), row.remove, row.handle, row.gone);
  row.title.value = item.title;
  row.memo.value = item.memo ?? '';
  row.check.addEventListener('click', () => toggle(row));
  row.remove.addEventListener('click', () => remove(row));
  translateRow(row);
  showState(row, item, editingId);
  return row;
}

export function translateRow(row) {
  const title = label(row);
  row.title.setAttribute('aria-label', t('reminders.title'));
  row.memo.setAttribute('aria-label', t('reminders.memo'));
  row.memo.placeholder = t('reminders.memo');
  row.check.setAttribute('aria-label', t('reminders.complete', { title }));
  row.remove.setAttribute('aria-label', t('reminders.delete', { title }));
  row.handle.setAttribute('aria-label', t('reminders.move', { title }));
  if (row.notice === 'changed') {
    const { title: other, memo } = row.theirs;
    row.goneText.textContent = t('reminders.changed', { title: memo ? `${other} — ${memo}` : other });
    row.keep.textContent = t('reminders.keepMine');
    row.theirsButton.textContent = t('reminders.takeTheirs');
  } else {
    row.goneText.textContent = t('reminders.gone');
    row.keep.textContent = t('reminders.keepAsNew');
    row.theirsButton.textContent = t('reminders.discard');
  }
}

/**
 * What the row says of a change made elsewhere while the person was in it, what they typed kept: `deleted`
 * (Keep mine as a new one, or Discard; meanwhile its circle and handle do nothing), `changed` to `theirs`
 * (Keep mine, or Use the other), or nothing (`null`).
 */
export function showNotice(row, kind, theirs = null) {
  row.notice = kind;
  row.deleted = kind === 'deleted';
  row.theirs = theirs;
  row.gone.hidden = !kind;
  row.li.classList.toggle('deleted', row.deleted);
  for (const control of [row.check, row.handle]) {
    if (row.deleted) control.setAttribute('aria-disabled', 'true');
    else control.removeAttribute('aria-disabled');
  }
  if (kind) row.memo.hidden = !row.memo.value && document.activeElement !== row.memo;
  translateRow(row);
}

/** Shows what the server says of a reminder besides its text: completion, memo visibility, editing. */
export function showState(row, item, editingId) {
  row.server = item;
  if (item.title.trim()) row.keptTitle = item.title;
  row.li.classList.toggle('completed', item.completed);
  row.li.classList.toggle('editing', item.id === editingId);
  row.check.setAttribute('aria-pressed', String(item.completed));
  row.memo.hidden = !item.memoVisible && document.activeElement !== row.memo;
}

/** Takes the server's reminder into a row, keeping whatever the user typed and has not had saved. */
export function takeItem(row, item, typedSince, editingId) {
  const keep = typedSince || unsaved(row) || row.timer;
  if (!keep && document.activeElement !== row.title && row.title.value !== item.title) row.title.value = item.title;
  if (!keep && document.activeElement !== row.memo && row.memo.value !== (item.memo ?? '')) row.memo.value = item.memo ?? '';
  showState(row, item, editingId);
  translateRow(row);
}
