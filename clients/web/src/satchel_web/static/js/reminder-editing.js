// @ts-check
// A reminder row's editing and saving: what is typed saved once typing rests (and at once before any other
// call), over the version it was typed over; the editing session begun and ended with the focus; and the
// person's other acts on a row (add, Return for the next, complete, delete, move), each a call to the server
// whose answer the row then shows.
import { extend, t } from './i18n.js';
import { label, textOf, translateRow, unsaved } from './reminder-row.js';
import { showError } from './ui.js';

extend({
  en: {
    'reminders.moved': '“{title}” is now {position} of {count}',
    'reminders.deleted': '“{title}” deleted',
  },
  ru: {
    'reminders.moved': '«{title}» теперь {position} из {count}',
    'reminders.deleted': '«{title}» удалено',
  },
  ja: {
    'reminders.moved': '「{title}」は {count} 件中 {position} 番目になりました',
    'reminders.deleted': '「{title}」を削除しました',
  },
});

/** How long typing rests before the title or memo is saved (it is saved at once before any other call). */
const SAVE_DELAY = 300;

/**
 * The Reminders screen's saving and calls, over its context (reminders.js): its rows and editing session, and
 * what its other modules do with a change from elsewhere, with Undo and with the rows' places.
 * @param {import('./reminders.js').RemindersContext} ctx
 */
export function editing(ctx) {
  const { rpc, rows } = ctx;

  function focusTitle(row, typed = '') {
    row.title.focus();
    if (typed) {
      row.title.value += typed;
      edited(row);
    }
    const end = row.title.value.length;
    row.title.setSelectionRange(end, end);
  }

  // Saving what is typed

  function edited(row) {
    row.edits += 1;
    translateRow(row);
    clearTimeout(row.timer);
    row.timer = setTimeout(() => save(row), SAVE_DELAY);
  }

  /**
   * Sends the title and memo now if they differ from what was last sent; every other call comes after. Each
   * save goes over the version the row was typed over (`ifRevision`): one changed elsewhere meanwhile is
   * shown beside what was typed rather than overwritten unseen.
   */
  function save(row) {
    clearTimeout(row.timer);
    row.timer = null;
    if (row.sentEdits === row.edits || !rows.has(row.id) || row.notice) return;
    const edits = row.edits;
    row.sentEdits = edits;
    const params = { id: row.id, ifRevision: row.server.revision };
    if (row.title.value !== row.server.title) params.title = row.title.value;
    if (row.memo.value !== (row.server.memo ?? '')) params.memo = row.memo.value === '' ? null : row.memo.value;
    if (!('title' in params) && !('memo' in params)) {
      row.savedEdits = Math.max(row.savedEdits, edits);
      return;
    }
    const words = textOf(row.title.value, row.memo.value);
    row.sent.push(words);
    const answered = () => row.sent.splice(row.sent.indexOf(words), 1);
    rpc.call('reminders.update', params).then((reminder) => {
      answered();
      row.savedEdits = Math.max(row.savedEdits, edits);
      row.failed = false;
      showError(row.error, null);
      if (rows.get(row.id) === row) ctx.showState(row, reminder);
    }, async (error) => {
      answered();
      if (row.sentEdits === edits) row.sentEdits = row.savedEdits;
      if (ctx.gone(row, error)) return;
      if (error.reason === 'revisionConflict') {
        // Changed since: elsewhere (to other words: the choice), or by a save of this row's that went first.
        const now = await rpc.call('reminders.get', { id: row.id }).catch((failure) => (ctx.gone(row, failure) ? null : undefined));
        if (now !== undefined) {
          if (now === null || !rows.has(row.id) || row.notice) return;
          const newer = now.revision > row.server.revision;
          if (newer && ctx.arrived(row, now)) return;
          if (newer) ctx.showState(row, now);
          row.sentEdits = -1; // saved again, over the version it is now
          save(row);
          return;
        }
      }
      row.failed = true;
      showError(row.error, error);
    });
  }

  function saveAll() {
    for (const row of rows.values()) save(row);
  }

  // Calls

  /** Adds a reminder (`params` of `reminders.add`) with the cursor in its title; resolves to its row. */
  async function add(params = {}) {
    // With more of the list below what is loaded, the new one goes right after the last row shown, where it is seen.
    if (!params.afterId && ctx.pages.more && rows.size) params = { ...params, afterId: ctx.domRows().at(-1).id };
    ctx.dropUndo();
    saveAll();
    ctx.sessionCalls += 1;
    let row = null;
    try {
      const { reminder, removedIds } = await rpc.call('reminders.add', params);
      ctx.editingId = reminder.id;
      showError(ctx.listError, null);
      row = ctx.insertRow(reminder, params.afterId);
      focusTitle(row);
      ctx.removeRows(removedIds);
    } catch (error) {
      showError(ctx.listError, error);
    }
    ctx.schedule();
    return row;
  }

  async function submit(row) {
    if (ctx.pendingSubmit || row.notice) return; // a change made elsewhere waits for the person's choice
    ctx.dropUndo();
    const pending = { row, typed: '' };
    ctx.pendingSubmit = pending;
    saveAll();
    ctx.sessionCalls += 1;
    try {
      const { created, removedId } = await rpc.call('reminders.submit', { id: row.id });
      showError(row.error, null);
      if (created) {
        ctx.editingId = created.id;
        focusTitle(ctx.insertRow(created, row.id), pending.typed);
      }
      if (removedId) {
        if (!created) ctx.editingId = null;
        ctx.removeRows([removedId]);
      }
    } catch (error) {
      if (!ctx.gone(row, error)) showError(row.error, error);
      if (pending.typed) focusTitle(row, pending.typed);
    } finally {
      ctx.pendingSubmit = null;
    }
    ctx.schedule();
  }

  async function beginEditing(row) {
    if (row.deleted) return;
    saveAll();
    ctx.sessionCalls += 1;
    ctx.editingId = row.id;
    try {
      const { reminder, removedIds } = await rpc.call('reminders.beginEditing', { id: row.id });
      ctx.editingId = reminder.id;
      showError(row.error, null);
      if (rows.get(reminder.id) === row) ctx.showState(row, reminder);
      ctx.removeRows(removedIds);
    } catch (error) {
      if (!ctx.gone(row, error)) showError(row.error, error);
    }
    ctx.schedule();
  }

  async function endEditing(row) {
    // What the server refused to save stays in the row, and so does the session it belongs to.
    if ((row.failed && unsaved(row)) || row.deleted) return;
    saveAll();
    ctx.sessionCalls += 1;
    ctx.editingId = null;
    row.li.classList.remove('editing');
    try {
      const { reminder, removedId } = await rpc.call('reminders.endEditing', {});
      ctx.editingId = null;
      if (reminder && rows.has(reminder.id)) ctx.showState(rows.get(reminder.id), reminder);
      if (removedId) ctx.removeRows([removedId]);
    } catch (error) {
      showError(row.error, error);
    }
    ctx.schedule();
  }

  async function toggle(row) {
    if (row.deleted) return;
    ctx.dropUndo();
    saveAll();
    try {
      const reminder = await rpc.call('reminders.toggle', { id: row.id });
      showError(row.error, null);
      if (rows.get(reminder.id) === row) ctx.showState(row, reminder);
      ctx.showRows(); // completed, it stays in view while the focus is in its row
    } catch (error) {
      if (!ctx.gone(row, error)) showError(row.error, error);
    }
    ctx.schedule();
  }

  async function remove(row) {
    if (row.deleted) {
      ctx.removeRow(row.id, false); // "Discard"
      return;
    }
    ctx.dropUndo();
    saveAll();
    const title = label(row);
    try {
      // Deleted elsewhere meanwhile: as the person wanted.
      await rpc.call('reminders.delete', { id: row.id }).catch((error) => { if (error.reason !== 'notFound') throw error; });
      ctx.removeRow(row.id);
      ctx.status.textContent = t('reminders.deleted', { title });
    } catch (error) {
      showError(row.error, error);
    }
    ctx.schedule();
  }

  async function moveTo(row, toIndex) {
    const order = ctx.domRows();
    const from = order.indexOf(row);
    if (from < 0 || toIndex < 0 || toIndex >= order.length || toIndex === from || row.deleted) return;
    ctx.dropUndo();
    saveAll();
    try {
      await rpc.call('reminders.move', { id: row.id, toIndex });
      showError(row.error, null);
      const now = ctx.domRows().filter((other) => other !== row);
      now.splice(Math.min(toIndex, now.length), 0, row);
      ctx.arrangeRows(now);
      const onScreen = now.filter((each) => !each.li.hidden);
      ctx.status.textContent = t('reminders.moved', { title: label(row), position: onScreen.indexOf(row) + 1, count: onScreen.length });
    } catch (error) {
      if (!ctx.gone(row, error)) showError(row.error, error);
    }
    ctx.schedule();
  }

  return { focusTitle, edited, save, saveAll, add, submit, beginEditing, endEditing, toggle, remove, moveTo };
}
