// @ts-check
// The Reminders list: its rows in the server's order, read a page at a time as the person scrolls, and read again
// (as many as are shown) on any change, without overwriting what a row holds that the person typed; a row added
// or taken away by the page, with the focus it held going where the person expects.
import { makeRow, showNotice, showState, takeItem, unsaved } from './reminder-row.js';
import { arrange, coalesce, showError } from './ui.js';

/**
 * The list's rows and their reading, over the Reminders screen's context (reminders.js).
 * @param {import('./reminders.js').RemindersContext} ctx
 */
export function listRows(ctx) {
  const { rpc, rows, list, pages, more, listError } = ctx;

  const isField = (element) => element instanceof HTMLInputElement && element.classList.contains('rem-field');
  const domRows = () => [...list.children].map((li) => rows.get(/** @type {HTMLElement} */ (li).dataset.id)).filter(Boolean);

  const createRow = (item) => makeRow(item, {
    toggle: (row) => ctx.toggle(row), remove: (row) => ctx.remove(row), keep: (row) => ctx.keep(row),
    theirs: (row) => ctx.theirs(row), editingId: ctx.editingId,
  });

  function insertRow(item, afterId) {
    const row = createRow(item);
    rows.set(item.id, row);
    const after = afterId ? rows.get(afterId)?.li : null;
    ctx.quiet = true;
    try {
      if (after?.parentNode === list) after.after(row.li);
      else list.append(row.li);
    } finally { ctx.quiet = false; }
    ctx.showEmpty();
    return row;
  }

  /**
   * Takes a row away. The focus it held goes to `focusTo` if given, else to the next row's circle when the
   * person's own act took it (the bin, a blank one left), else (`byPerson` false) to the heading: never to
   * another reminder they did not choose, where the next key would change it.
   */
  function removeRow(id, byPerson = true, focusTo = null) {
    const row = rows.get(id);
    if (!row) return;
    clearTimeout(row.timer);
    rows.delete(id);
    if (ctx.editingId === id) ctx.editingId = null;
    const hadFocus = row.li.contains(document.activeElement);
    const next = row.li.nextElementSibling ?? row.li.previousElementSibling;
    ctx.quiet = true;
    try { row.li.remove(); } finally { ctx.quiet = false; }
    if (hadFocus) (focusTo ?? ((byPerson && rows.get(next?.dataset.id)?.check) || (byPerson ? ctx.newButton : ctx.heading))).focus();
    ctx.showEmpty();
  }

  /** Puts the rows in `ordered`'s order without ever taking out the one that holds the focus. */
  function arrangeRows(ordered) {
    ctx.quiet = true;
    try {
      arrange(list, ordered);
    } finally { ctx.quiet = false; }
  }

  // Loading

  /** Reads again, from the start, as many reminders as there are rows (at least a page). */
  async function listShown() {
    const items = await pages.reload(rows.size);
    return { items, editingId: pages.last.editingId };
  }

  /** Of `candidates`, rows missing from what was read, the ids the server still has further down the list. */
  async function furtherDown(candidates) {
    const found = await Promise.all(candidates.map((row) => rpc.call('reminders.get', { id: row.id }).then(() => row.id, () => null)));
    return new Set(found.filter(Boolean));
  }

  async function load() {
    const before = new Map([...rows].map(([id, row]) => [id, row.edits]));
    const calls = ctx.sessionCalls;
    let answer;
    try {
      answer = await listShown();
      showError(listError, null);
    } catch (error) {
      showError(listError, error);
      return;
    }
    ctx.loaded = true;
    if (calls === ctx.sessionCalls) ctx.editingId = answer.editingId;
    const ordered = [];
    const seen = new Set();
    // A row being typed in, or holding what was typed, is not overwritten by other words from elsewhere; the
    // row the person is in, or holding what they typed, does not vanish when deleted elsewhere.
    const typing = (row) => (isField(document.activeElement) && row.li.contains(document.activeElement)) || unsaved(row)
      || row.timer !== null;
    const held = (row) => row.li.contains(document.activeElement) || unsaved(row);
    for (const item of answer.items) {
      seen.add(item.id);
      const row = rows.get(item.id);
      if (row) {
        const newer = item.revision > (row.notice === 'changed' ? row.theirs : row.server).revision;
        const take = () => takeItem(row, item, before.has(item.id) && before.get(item.id) !== row.edits, ctx.editingId);
        if (row.notice !== 'changed') {
          if (!(typing(row) && newer && ctx.arrived(row, item))) take();
        } else if (newer && ctx.ours(row, item)) { // the same words on both sides now: nothing to choose
          showNotice(row, null);
          take();
        } else if (newer) {
          ctx.arrived(row, item);
        }
        ordered.push(row);
      } else {
        const created = createRow(item);
        rows.set(item.id, created);
        ordered.push(created);
      }
    }
    // Rows the server no longer has. With more of the list than is loaded, a row being typed in may only have
    // moved further down: it stays. One the server held with a blank title was swept by its empty-title cleanup
    // (a restarted satchel's): what was typed in it is added again. Any other was deleted elsewhere: the row the
    // person is in, or that holds what they typed, stays where it was and says so; the rest go.
    const missing = domRows().filter((row) => !seen.has(row.id) && before.has(row.id) && !row.deleted);
    const further = pages.more ? await furtherDown(missing.filter(held)) : new Set();
    const lost = [];
    let previous = null;
    const keepInPlace = (row) => {
      ordered.splice(previous ? ordered.indexOf(previous) + 1 : 0, 0, row);
      previous = row;
    };
    for (const row of domRows()) {
      if (seen.has(row.id)) { previous = row; continue; }
      if (!before.has(row.id)) continue;
      if (further.has(row.id)) {
        ordered.push(row);
      } else if (!row.deleted && !row.server.title.trim()) {
        if (row.title.value.trim()) {
          lost.push([row, previous?.id ?? null]);
          keepInPlace(row);
        } else {
          removeRow(row.id, false);
        }
      } else if (row.deleted || held(row)) {
        ctx.markDeleted(row);
        keepInPlace(row);
      } else {
        removeRow(row.id, false);
      }
    }
    arrangeRows(ordered);
    for (const row of rows.values()) row.li.classList.toggle('editing', row.id === ctx.editingId && !row.deleted);
    ctx.showRows();
    more.show(pages.more);
    for (const [row, afterId] of lost) await ctx.rescue(row, afterId && seen.has(afterId) ? afterId : null);
  }

  /** The next page, added below the rows; resolves to what it added (`null` when it could not be read). */
  async function loadMore(limit) {
    let added = null;
    try {
      added = await pages.next(limit);
      showError(listError, null);
      ctx.quiet = true;
      try {
        for (const item of added.filter((each) => !rows.has(each.id))) {
          const row = createRow(item);
          rows.set(item.id, row);
          list.append(row.li);
        }
      } finally { ctx.quiet = false; }
      ctx.showRows();
    } catch (error) {
      showError(listError, error);
    }
    more.show(pages.more);
    return added;
  }

  return {
    isField, domRows, createRow, insertRow, removeRow, arrangeRows, load, loadMore, schedule: coalesce(load),
    showState: (row, item) => showState(row, item, ctx.editingId),
  };
}
