// @ts-check
// A reminder deleted or changed elsewhere (another window, another device) while the person is in its row: the
// row stays, with what they typed, and says so (reminder-row.js's notice) until they choose: Keep mine (as a
// new one, when it was deleted), Discard, or Use the other. A row whose text the server no longer has (a
// restarted satchel's empty-title cleanup swept it) is added again.
import { showNotice, textOf, translateRow, unsaved } from './reminder-row.js';
import { showError } from './ui.js';

/**
 * What the Reminders screen does with a change made elsewhere while the person is in a row, over the screen's
 * context (reminders.js): its rows and editing session, and the saving, focus and Undo of its other modules.
 * @param {import('./reminders.js').RemindersContext} ctx
 */
export function elsewhere(ctx) {
  const { rpc, rows } = ctx;

  /** Deleted elsewhere while the person is in the row, or holding what they typed: it stays and says so. */
  function markDeleted(row) {
    if (row.deleted) return;
    clearTimeout(row.timer);
    row.timer = null;
    if (ctx.editingId === row.id) ctx.editingId = null;
    row.li.classList.remove('editing');
    showError(row.error, null);
    showNotice(row, 'deleted');
  }

  /** Whether `item`'s words are the row's own: as last known, as typed, or as saved and not yet answered. */
  function ours(row, item) {
    const words = textOf(item.title, item.memo);
    return words === textOf(row.server.title, row.server.memo) || words === textOf(row.title.value, row.memo.value)
      || row.sent.includes(words);
  }

  /**
   * `item`, newer than what the row was typed over: changed to other words elsewhere, it is shown beside what
   * was typed (saving waits for the person's choice); else it is the row's new version. Resolves to whether
   * it was the choice.
   */
  function arrived(row, item) {
    if (ours(row, item)) return false;
    clearTimeout(row.timer);
    row.timer = null;
    showError(row.error, null);
    showNotice(row, 'changed', item);
    return true;
  }

  /**
   * Whether `error` says the row's reminder is no longer there: deleted elsewhere, the row says so; held blank
   * by the server, it was swept by the empty-title cleanup (a restarted satchel's), and the next read adds what
   * was typed again.
   */
  function gone(row, error) {
    if (error?.reason !== 'notFound' || error.data?.kind !== 'reminder' || !rows.has(row.id)) return false;
    if (row.server.title.trim()) markDeleted(row);
    ctx.schedule();
    return true;
  }

  /**
   * "Keep mine": saved over the other version, having seen it. "Keep mine as a new one": what the row holds is
   * added again where it was. Editing goes on in the row.
   */
  async function keep(row) {
    if (row.notice === 'changed') {
      ctx.showState(row, row.theirs); // what the save goes over
      showNotice(row, null);
      row.sentEdits = -1;
      ctx.save(row);
      ctx.focusTitle(row);
      return;
    }
    let previous = row.li.previousElementSibling;
    while (previous && rows.get(previous.dataset.id)?.deleted) previous = previous.previousElementSibling;
    const { completed } = row.server;
    if (!(await rescue(row, rows.get(previous?.dataset.id)?.id ?? null))) return;
    showNotice(row, null);
    ctx.save(row); // what was typed while it was being added
    ctx.focusTitle(row);
    if (completed) await rpc.call('reminders.setCompleted', { id: row.id, completed: true }).then((item) => ctx.showState(row, item), () => {});
  }

  /** "Use the other": its words in the row. "Discard": the row of a reminder deleted elsewhere goes. */
  function theirs(row) {
    if (row.notice !== 'changed') {
      ctx.removeRow(row.id, false);
      return;
    }
    const other = row.theirs;
    showNotice(row, null);
    row.title.value = other.title;
    row.memo.value = other.memo ?? '';
    row.sentEdits = row.savedEdits = row.edits;
    ctx.showState(row, other);
    translateRow(row);
    ctx.focusTitle(row);
  }

  /** The server's empty-title cleanup: a row still holding typed text the server never got is added again. */
  function removeRows(ids) {
    for (const id of ids ?? []) {
      const row = rows.get(id);
      if (!row) continue;
      if (unsaved(row) && row.title.value.trim()) {
        const previous = rows.get(row.li.previousElementSibling?.dataset.id);
        rescue(row, previous?.id ?? null);
      } else {
        // Its title cleared, a reminder goes with its notes: Undo, offered, has the focus it had.
        ctx.removeRow(id, true, ctx.offerUndo(row) ? ctx.undoButton : null);
      }
    }
  }

  /**
   * A row whose text the server no longer has (a restarted satchel swept it, or the person keeps what was
   * deleted elsewhere): added again. Resolves to whether it was.
   */
  async function rescue(row, afterId) {
    if (row.rescuing) return false;
    let added = false;
    row.rescuing = true;
    const focused = row.li.contains(document.activeElement);
    const edits = row.edits;
    try {
      const params = { title: row.title.value };
      if (row.memo.value) params.memo = row.memo.value;
      if (afterId) params.afterId = afterId;
      ctx.sessionCalls += 1;
      const { reminder, removedIds } = await rpc.call('reminders.add', params);
      rows.delete(row.id);
      row.id = reminder.id;
      row.li.dataset.id = reminder.id;
      rows.set(reminder.id, row);
      row.sentEdits = row.savedEdits = edits;
      row.failed = false;
      ctx.editingId = reminder.id;
      showError(row.error, null);
      ctx.showState(row, reminder);
      added = true;
      removeRows(removedIds);
      if (!focused && !row.li.contains(document.activeElement)) await ctx.endEditing(row);
    } catch (error) {
      showError(row.error, error);
    } finally {
      row.rescuing = false;
    }
    ctx.schedule();
    return added;
  }

  return { markDeleted, ours, arrived, gone, keep, theirs, removeRows, rescue };
}
