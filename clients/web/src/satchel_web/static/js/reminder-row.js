// @ts-check
// One reminder's row: its elements, what the server says of it besides its text (completion, memo shown,
// being edited), taking a newer answer in without losing what the person typed, and the row of a reminder
// deleted elsewhere while the person was in it (kept, saying so). Its words are the Reminders screen's
// (reminders.js).
import { t } from './i18n.js';
import { icon } from './icons.js';
import { errorLine, h } from './ui.js';

/** What the row is called: its title as typed, or "New Reminder" while blank. */
export const label = (row) => row.title.value.trim() || t('reminders.new');

/** Whether the person typed in the row since the server last saved it. */
export const unsaved = (row) => row.edits !== row.savedEdits;

/**
 * A row for `item`; its circle calls `toggle(row)`, its bin `remove(row)`; once the reminder is deleted
 * elsewhere (`showDeleted`), its notice's buttons call `keep(row)` and `discard(row)`.
 */
export function makeRow(item, { toggle, remove, keep, discard, editingId }) {
  const row = {
    id: item.id, server: item, edits: 0, sentEdits: 0, savedEdits: 0, timer: null, failed: false, deleted: false,
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
  row.discard = h('button', { type: 'button', class: 'rem-discard', onclick: () => discard(row) });
  row.gone = h('div', { class: 'rem-gone', role: 'alert', hidden: true }, row.goneText, h('span', { class: 'rem-gone-actions' }, row.keep, row.discard));
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
  row.goneText.textContent = t('reminders.gone');
  row.keep.textContent = t('reminders.keepAsNew');
  row.discard.textContent = t('reminders.discard');
}

/**
 * The reminder was deleted elsewhere while the person was in its row (`deleted`), or is saved again: the row
 * says so and offers to keep what it holds as a new one; meanwhile its circle and handle do nothing.
 */
export function showDeleted(row, deleted) {
  row.deleted = deleted;
  row.gone.hidden = !deleted;
  row.li.classList.toggle('deleted', deleted);
  for (const control of [row.check, row.handle]) {
    if (deleted) control.setAttribute('aria-disabled', 'true');
    else control.removeAttribute('aria-disabled');
  }
  if (deleted) row.memo.hidden = !row.memo.value && document.activeElement !== row.memo;
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
