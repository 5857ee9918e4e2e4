// @ts-check
// Reminders: the list in the user's order, edited in place as the original app does. A click on the empty
// screen or below the last row adds one, Return inserts the next, leaving the title ends editing (the server
// removes a blank one), the memo shows when the server says so, a circle completes, rows move by drag or
// Alt+Arrow. Every rule and every order comes from the server; the page only shows its answers. A long list is
// read a page at a time as the person scrolls; a refresh reads again what is shown. Completed reminders are
// hidden until Show Completed, as in iOS. A reminder deleted or changed elsewhere while the person is in its
// row stays, with what they typed, until they choose.
import { arrange, coalesce, errorLine, h, moreButton, pagedList, showError } from './ui.js';
import { extend, t } from './i18n.js';
import { dragRows } from './dragrows.js';
import { icon } from './icons.js';
import {
  label, makeRow, showNotice, showState as showRowState, takeItem as takeRowItem, textOf, translateRow, unsaved,
} from './reminder-row.js';

extend({
  en: {
    'reminders.empty': 'No Reminders',
    'reminders.showCompleted': 'Show Completed',
    'reminders.hideCompleted': 'Hide Completed',
    'reminders.new': 'New Reminder',
    'reminders.list': 'Reminders',
    'reminders.title': 'Title',
    'reminders.memo': 'Notes',
    'reminders.complete': 'Completed: {title}',
    'reminders.delete': 'Delete “{title}”',
    'reminders.move': 'Move “{title}” (Alt+Arrow Up or Down)',
    'reminders.moved': '“{title}” is now {position} of {count}',
    'reminders.deleted': '“{title}” deleted',
    'reminders.gone': 'This reminder was deleted somewhere else while you were in it.',
    'reminders.keepAsNew': 'Keep mine as a new one',
    'reminders.discard': 'Discard',
    'reminders.changed': 'This reminder was changed somewhere else to “{title}” while you were in it.',
    'reminders.keepMine': 'Keep mine',
    'reminders.takeTheirs': 'Use the other',
    'reminders.undo': 'Undo',
  },
  ru: {
    'reminders.empty': 'Нет напоминаний',
    'reminders.showCompleted': 'Показать выполненные',
    'reminders.hideCompleted': 'Скрыть выполненные',
    'reminders.new': 'Новое напоминание',
    'reminders.list': 'Напоминания',
    'reminders.title': 'Название',
    'reminders.memo': 'Заметки',
    'reminders.complete': 'Выполнено: {title}',
    'reminders.delete': 'Удалить «{title}»',
    'reminders.move': 'Переместить «{title}» (Alt+стрелка вверх или вниз)',
    'reminders.moved': '«{title}» теперь {position} из {count}',
    'reminders.deleted': '«{title}» удалено',
    'reminders.gone': 'Пока вы были в этом напоминании, его удалили в другом месте.',
    'reminders.keepAsNew': 'Сохранить моё как новое',
    'reminders.discard': 'Отбросить',
    'reminders.changed': 'Пока вы были в этом напоминании, его изменили в другом месте на «{title}».',
    'reminders.keepMine': 'Оставить моё',
    'reminders.takeTheirs': 'Взять другое',
    'reminders.undo': 'Вернуть',
  },
  ja: {
    'reminders.empty': 'リマインダーなし',
    'reminders.showCompleted': '実行済みを表示',
    'reminders.hideCompleted': '実行済みを非表示',
    'reminders.new': '新規リマインダー',
    'reminders.list': 'リマインダー',
    'reminders.title': 'タイトル',
    'reminders.memo': 'メモ',
    'reminders.complete': '完了: {title}',
    'reminders.delete': '「{title}」を削除',
    'reminders.move': '「{title}」を移動（Alt+上下矢印）',
    'reminders.moved': '「{title}」は {count} 件中 {position} 番目になりました',
    'reminders.deleted': '「{title}」を削除しました',
    'reminders.gone': '編集中に、このリマインダーが別の場所で削除されました。',
    'reminders.keepAsNew': '自分の版を新しく保存',
    'reminders.discard': '破棄',
    'reminders.changed': '編集中に、このリマインダーが別の場所で「{title}」に変更されました。',
    'reminders.keepMine': '自分の版を残す',
    'reminders.takeTheirs': 'もう一方を使う',
    'reminders.undo': '取り消す',
  },
});

/** How long typing rests before the title or memo is saved (it is saved at once before any other call). */
const SAVE_DELAY = 300;

/**
 * Mounts the screen in `section`.
 * @param {HTMLElement} section
 * @param {import('./types.js').Context} context
 * @returns {import('./types.js').Screen}
 */
export function mount(section, { rpc }) {
  /** id → row: {id, li, check, title, memo, error, handle, remove, server, edits, sentEdits, savedEdits, timer, failed} */
  const rows = new Map();
  let editingId = null;
  /** Counts the calls that start or end an editing session, so a listing older than one is not believed. */
  let sessionCalls = 0;
  let loaded = false;
  /** While Return waits for the next reminder: where the keys typed meanwhile go. */
  let pendingSubmit = null;
  /** True while the page itself moves or removes rows: focus events then are not the user's. */
  let quiet = false;

  // Where the focus goes when the row holding it goes by no act of the person's: to no other reminder.
  const heading = h('h2', { class: 'rem-heading', tabindex: '-1' }, t('reminders'));
  const newLabel = h('span', {}, t('reminders.new'));
  const newButton = h('button', { type: 'button', class: 'rem-new', onclick: () => add() }, icon('add'), newLabel);
  let showCompleted = localStorage.getItem('satchel.reminders.showCompleted') === 'true';
  const completedButton = h('button', { type: 'button', class: 'rem-show-completed', onclick: () => setShowCompleted(!showCompleted) });
  const listError = errorLine();
  const status = h('p', { class: 'visually-hidden', role: 'status' });
  const list = h('ul', { class: 'list rem-list', 'aria-label': t('reminders.list') });
  const empty = h('p', { class: 'empty rem-empty', hidden: true }, t('reminders.empty'));
  const tail = h('div', { class: 'rem-tail' });
  const card = h('div', { class: 'card rem-card', hidden: true }, list);
  const pages = pagedList(rpc, 'reminders.list');
  const more = moreButton(() => loadMore());
  more.element.textContent = t('loadMore');
  const canvas = h('div', { class: 'rem-canvas' }, card, more.element, empty, tail);
  // A reminder the empty-title cleanup took, notes and all, and Undo (until the person's next change).
  const undoText = h('span', { class: 'rem-undo-text' });
  const undoButton = h('button', { type: 'button', class: 'rem-undo-button', onclick: () => undoRemoval() });
  const undoBar = h('p', { class: 'rem-undo', role: 'status', hidden: true }, undoText, undoButton);
  /** @type {{title: string, memo: string, completed: boolean, afterId: string | null} | null} */
  let undone = null;
  section.classList.add('reminders');
  section.append(h('div', { class: 'toolbar rem-toolbar' }, heading, newButton), h('div', { class: 'rem-filter' }, completedButton),
    listError, status, canvas, undoBar);

  // Rows

  const rowOf = (element) => (element instanceof Element
    ? rows.get(/** @type {HTMLElement | null} */ (element.closest('li.rem-row'))?.dataset.id) : undefined);
  const isField = (element) => element instanceof HTMLInputElement && element.classList.contains('rem-field');
  const domRows = () => [...list.children].map((li) => rows.get(li.dataset.id)).filter(Boolean);

  const createRow = (item) => makeRow(item, { toggle, remove, keep, theirs, editingId });
  const showState = (row, item) => showRowState(row, item, editingId);
  const takeItem = (row, item, typedSince) => takeRowItem(row, item, typedSince, editingId);

  function insertRow(item, afterId) {
    const row = createRow(item);
    rows.set(item.id, row);
    const after = afterId ? rows.get(afterId)?.li : null;
    quiet = true;
    try {
      if (after?.parentNode === list) after.after(row.li);
      else list.append(row.li);
    } finally { quiet = false; }
    showEmpty();
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
    if (editingId === id) editingId = null;
    const hadFocus = row.li.contains(document.activeElement);
    const next = row.li.nextElementSibling ?? row.li.previousElementSibling;
    quiet = true;
    try { row.li.remove(); } finally { quiet = false; }
    if (hadFocus) (focusTo ?? ((byPerson && rows.get(next?.dataset.id)?.check) || (byPerson ? newButton : heading))).focus();
    showEmpty();
  }

  // Changes made elsewhere while the person is in a row

  /** Deleted elsewhere while the person is in the row, or holding what they typed: it stays and says so. */
  function markDeleted(row) {
    if (row.deleted) return;
    clearTimeout(row.timer);
    row.timer = null;
    if (editingId === row.id) editingId = null;
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
    schedule();
    return true;
  }

  /**
   * "Keep mine": saved over the other version, having seen it. "Keep mine as a new one": what the row holds is
   * added again where it was. Editing goes on in the row.
   */
  async function keep(row) {
    if (row.notice === 'changed') {
      showState(row, row.theirs); // what the save goes over
      showNotice(row, null);
      row.sentEdits = -1;
      save(row);
      focusTitle(row);
      return;
    }
    let previous = row.li.previousElementSibling;
    while (previous && rows.get(previous.dataset.id)?.deleted) previous = previous.previousElementSibling;
    const { completed } = row.server;
    if (!(await rescue(row, rows.get(previous?.dataset.id)?.id ?? null))) return;
    showNotice(row, null);
    save(row); // what was typed while it was being added
    focusTitle(row);
    if (completed) await rpc.call('reminders.setCompleted', { id: row.id, completed: true }).then((item) => showState(row, item), () => {});
  }

  /** "Use the other": its words in the row. "Discard": the row of a reminder deleted elsewhere goes. */
  function theirs(row) {
    if (row.notice !== 'changed') {
      removeRow(row.id, false);
      return;
    }
    const other = row.theirs;
    showNotice(row, null);
    row.title.value = other.title;
    row.memo.value = other.memo ?? '';
    row.sentEdits = row.savedEdits = row.edits;
    showState(row, other);
    translateRow(row);
    focusTitle(row);
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
        removeRow(id, true, offerUndo(row) ? undoButton : null);
      }
    }
  }

  // Undo

  /**
   * A reminder with a title or notes that the cleanup takes (its title cleared): the page offers it back.
   * Resolves to whether it does.
   */
  function offerUndo(row) {
    const memo = row.memo.value.trim() ? row.memo.value : '';
    if (!row.keptTitle && !memo) return false; // a blank new one, left: nothing to give back
    const previous = rows.get(row.li.previousElementSibling?.dataset.id);
    undone = { title: row.keptTitle, memo, completed: row.server.completed, afterId: previous?.id ?? null };
    showUndo();
    return true;
  }

  function showUndo() {
    undoBar.hidden = !undone;
    undoText.textContent = undone ? t('reminders.deleted', { title: undone.title || t('reminders.new') }) : '';
    undoButton.textContent = t('reminders.undo');
  }

  /** The person's next change: what was taken before it is no longer offered back. */
  function dropUndo() {
    undone = null;
    showUndo();
  }

  /** Adds the reminder taken back where it was, with its title, notes and completion; the cursor in its title. */
  async function undoRemoval() {
    const what = undone;
    if (!what) return;
    dropUndo();
    /** @type {{title: string, memo?: string, afterId?: string}} */
    const params = { title: what.title, ...(what.memo ? { memo: what.memo } : {}) };
    if (what.afterId && rows.has(what.afterId)) params.afterId = what.afterId;
    const row = await add(params);
    if (!row) return;
    if (!what.afterId) await moveTo(row, 0);
    if (what.completed) await rpc.call('reminders.setCompleted', { id: row.id, completed: true }).then((item) => showState(row, item), () => {});
  }

  // Completed reminders, hidden until Show Completed, as in iOS

  /**
   * Whether the row is on screen: not completed, or completed with Show Completed on, or holding the focus
   * (`focused`, the element that has or takes it) or what the person typed or has to choose.
   */
  function shows(row, focused = document.activeElement) {
    return showCompleted || !row.server.completed || Boolean(row.notice) || unsaved(row)
      || (focused instanceof Node && row.li.contains(focused));
  }

  function showRows(focused = document.activeElement) {
    for (const row of rows.values()) row.li.hidden = !shows(row, focused);
    showEmpty();
  }

  function setShowCompleted(on) {
    showCompleted = on;
    localStorage.setItem('satchel.reminders.showCompleted', String(on));
    completedButton.textContent = t(on ? 'reminders.hideCompleted' : 'reminders.showCompleted');
    showRows();
  }

  function showEmpty() {
    const none = ![...rows.values()].some((row) => !row.li.hidden);
    empty.hidden = !loaded || !none;
    card.hidden = none;
  }

  /** Puts the rows in `ordered`'s order without ever taking out the one that holds the focus. */
  function arrangeRows(ordered) {
    quiet = true;
    try {
      arrange(list, ordered);
    } finally { quiet = false; }
  }

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
      if (rows.get(row.id) === row) showState(row, reminder);
    }, async (error) => {
      answered();
      if (row.sentEdits === edits) row.sentEdits = row.savedEdits;
      if (gone(row, error)) return;
      if (error.reason === 'revisionConflict') {
        // Changed since: elsewhere (to other words: the choice), or by a save of this row's that went first.
        const now = await rpc.call('reminders.get', { id: row.id }).catch((failure) => (gone(row, failure) ? null : undefined));
        if (now !== undefined) {
          if (now === null || !rows.has(row.id) || row.notice) return;
          const newer = now.revision > row.server.revision;
          if (newer && arrived(row, now)) return;
          if (newer) showState(row, now);
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
    if (!params.afterId && pages.more && rows.size) params = { ...params, afterId: domRows().at(-1).id };
    dropUndo();
    saveAll();
    sessionCalls += 1;
    let row = null;
    try {
      const { reminder, removedIds } = await rpc.call('reminders.add', params);
      editingId = reminder.id;
      showError(listError, null);
      row = insertRow(reminder, params.afterId);
      focusTitle(row);
      removeRows(removedIds);
    } catch (error) {
      showError(listError, error);
    }
    schedule();
    return row;
  }

  async function submit(row) {
    if (pendingSubmit || row.notice) return; // a change made elsewhere waits for the person's choice
    dropUndo();
    pendingSubmit = { row, typed: '' };
    saveAll();
    sessionCalls += 1;
    try {
      const { created, removedId } = await rpc.call('reminders.submit', { id: row.id });
      showError(row.error, null);
      if (created) {
        editingId = created.id;
        focusTitle(insertRow(created, row.id), pendingSubmit.typed);
      }
      if (removedId) {
        if (!created) editingId = null;
        removeRows([removedId]);
      }
    } catch (error) {
      if (!gone(row, error)) showError(row.error, error);
      if (pendingSubmit.typed) focusTitle(row, pendingSubmit.typed);
    } finally {
      pendingSubmit = null;
    }
    schedule();
  }

  async function beginEditing(row) {
    if (row.deleted) return;
    saveAll();
    sessionCalls += 1;
    editingId = row.id;
    try {
      const { reminder, removedIds } = await rpc.call('reminders.beginEditing', { id: row.id });
      editingId = reminder.id;
      showError(row.error, null);
      if (rows.get(reminder.id) === row) showState(row, reminder);
      removeRows(removedIds);
    } catch (error) {
      if (!gone(row, error)) showError(row.error, error);
    }
    schedule();
  }

  async function endEditing(row) {
    // What the server refused to save stays in the row, and so does the session it belongs to.
    if ((row.failed && unsaved(row)) || row.deleted) return;
    saveAll();
    sessionCalls += 1;
    editingId = null;
    row.li.classList.remove('editing');
    try {
      const { reminder, removedId } = await rpc.call('reminders.endEditing', {});
      editingId = null;
      if (reminder && rows.has(reminder.id)) showState(rows.get(reminder.id), reminder);
      if (removedId) removeRows([removedId]);
    } catch (error) {
      showError(row.error, error);
    }
    schedule();
  }

  async function toggle(row) {
    if (row.deleted) return;
    dropUndo();
    saveAll();
    try {
      const reminder = await rpc.call('reminders.toggle', { id: row.id });
      showError(row.error, null);
      if (rows.get(reminder.id) === row) showState(row, reminder);
      showRows(); // completed, it stays in view while the focus is in its row
    } catch (error) {
      if (!gone(row, error)) showError(row.error, error);
    }
    schedule();
  }

  async function remove(row) {
    if (row.deleted) {
      removeRow(row.id, false); // "Discard"
      return;
    }
    dropUndo();
    saveAll();
    const title = label(row);
    try {
      // Deleted elsewhere meanwhile: as the person wanted.
      await rpc.call('reminders.delete', { id: row.id }).catch((error) => { if (error.reason !== 'notFound') throw error; });
      removeRow(row.id);
      status.textContent = t('reminders.deleted', { title });
    } catch (error) {
      showError(row.error, error);
    }
    schedule();
  }

  async function moveTo(row, toIndex) {
    const order = domRows();
    const from = order.indexOf(row);
    if (from < 0 || toIndex < 0 || toIndex >= order.length || toIndex === from || row.deleted) return;
    dropUndo();
    saveAll();
    try {
      await rpc.call('reminders.move', { id: row.id, toIndex });
      showError(row.error, null);
      const now = domRows().filter((other) => other !== row);
      now.splice(Math.min(toIndex, now.length), 0, row);
      arrangeRows(now);
      const onScreen = now.filter((each) => !each.li.hidden);
      status.textContent = t('reminders.moved', { title: label(row), position: onScreen.indexOf(row) + 1, count: onScreen.length });
    } catch (error) {
      if (!gone(row, error)) showError(row.error, error);
    }
    schedule();
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
      sessionCalls += 1;
      const { reminder, removedIds } = await rpc.call('reminders.add', params);
      rows.delete(row.id);
      row.id = reminder.id;
      row.li.dataset.id = reminder.id;
      rows.set(reminder.id, row);
      row.sentEdits = row.savedEdits = edits;
      row.failed = false;
      editingId = reminder.id;
      showError(row.error, null);
      showState(row, reminder);
      added = true;
      removeRows(removedIds);
      if (!focused && !row.li.contains(document.activeElement)) await endEditing(row);
    } catch (error) {
      showError(row.error, error);
    } finally {
      row.rescuing = false;
    }
    schedule();
    return added;
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
    const calls = sessionCalls;
    let answer;
    try {
      answer = await listShown();
      showError(listError, null);
    } catch (error) {
      showError(listError, error);
      return;
    }
    loaded = true;
    if (calls === sessionCalls) editingId = answer.editingId;
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
        const take = () => takeItem(row, item, before.has(item.id) && before.get(item.id) !== row.edits);
        if (row.notice !== 'changed') {
          if (!(typing(row) && newer && arrived(row, item))) take();
        } else if (newer && ours(row, item)) { // the same words on both sides now: nothing to choose
          showNotice(row, null);
          take();
        } else if (newer) {
          arrived(row, item);
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
        markDeleted(row);
        keepInPlace(row);
      } else {
        removeRow(row.id, false);
      }
    }
    arrangeRows(ordered);
    for (const row of rows.values()) row.li.classList.toggle('editing', row.id === editingId && !row.deleted);
    showRows();
    more.show(pages.more);
    for (const [row, afterId] of lost) await rescue(row, afterId && seen.has(afterId) ? afterId : null);
  }

  /** The next page, added below the rows; resolves to what it added (`null` when it could not be read). */
  async function loadMore(limit) {
    let added = null;
    try {
      added = await pages.next(limit);
      showError(listError, null);
      quiet = true;
      try {
        for (const item of added.filter((each) => !rows.has(each.id))) {
          const row = createRow(item);
          rows.set(item.id, row);
          list.append(row.li);
        }
      } finally { quiet = false; }
      showRows();
    } catch (error) {
      showError(listError, error);
    }
    more.show(pages.more);
    return added;
  }

  const schedule = coalesce(load);

  // The user's hands

  list.addEventListener('input', (event) => {
    const row = rowOf(event.target);
    if (row && isField(event.target)) edited(row);
  });

  list.addEventListener('focusin', (event) => {
    if (quiet) return;
    const row = rowOf(event.target);
    if (row && isField(event.target) && editingId !== row.id && !row.deleted) beginEditing(row);
  });

  // A completed row the person leaves goes: at once when the keyboard leaves it, once the pointer is released
  // when a press does (rows moving under a pressed pointer would change what it clicks), never when the
  // window only loses the focus.
  let pressed = false;
  document.addEventListener('pointerdown', () => { pressed = true; }, true);
  const released = () => {
    if (!pressed) return;
    pressed = false;
    setTimeout(() => showRows(), 0); // after the click the press makes
  };
  document.addEventListener('pointerup', released, true);
  document.addEventListener('pointercancel', released, true);

  list.addEventListener('focusout', (event) => {
    const left = rowOf(event.target);
    if (left && !pressed && document.activeElement !== event.target) {
      left.li.hidden = !shows(left, event.relatedTarget);
      if (left.li.hidden) showEmpty();
    }
    if (quiet) return;
    const row = rowOf(event.target);
    if (!row || !rows.has(row.id) || row.deleted) return;
    if (document.activeElement === event.target) return; // the window lost focus; the field keeps it
    const to = event.relatedTarget;
    if (to && rowOf(to) === row) return;
    if (to && isField(to)) return; // the field taking the focus begins its own editing
    if (editingId === row.id) endEditing(row);
  });

  list.addEventListener('keydown', (event) => {
    const row = rowOf(event.target);
    if (!row) return;
    const vertical = event.key === 'ArrowUp' || event.key === 'ArrowDown';
    if (vertical && (event.altKey || (event.target === row.handle && !event.ctrlKey && !event.metaKey))) {
      event.preventDefault();
      // One place up or down among the rows on screen: past the hidden completed ones.
      const order = domRows();
      const onScreen = order.filter((each) => !each.li.hidden);
      const next = onScreen[onScreen.indexOf(row) + (event.key === 'ArrowUp' ? -1 : 1)];
      if (next) moveTo(row, order.indexOf(next));
      return;
    }
    if (!isField(event.target) || event.isComposing || event.keyCode === 229) return;
    if (pendingSubmit?.row === row) {
      // Keys typed while Return waits for the next reminder belong to the next reminder.
      if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        pendingSubmit.typed += event.key;
      } else if (event.key === 'Backspace' && pendingSubmit.typed) {
        event.preventDefault();
        pendingSubmit.typed = pendingSubmit.typed.slice(0, -1);
      } else if (event.key === 'Enter') {
        event.preventDefault();
      }
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      submit(row); // not for a reminder deleted elsewhere: its notice offers what to do
    } else if (event.key === 'Escape') {
      // The keyboard is dismissed: editing ends, and the focus stays on the row (its circle), not the page
      // (on the next row's, when the row was blank and goes).
      event.preventDefault();
      row.check.focus();
      if (editingId === row.id) endEditing(row);
    }
  });

  // A press on a row's blank part edits its title, as a tap on the cell does.
  list.addEventListener('mousedown', (event) => {
    const row = rowOf(event.target);
    if (row && (event.target === row.li || event.target.classList.contains('rem-body'))) {
      event.preventDefault();
      row.title.focus();
    }
  });

  // The empty screen and the space below the last row add a reminder.
  const blank = (target) => target === canvas || target === tail || target === empty || target === card || target === list;
  canvas.addEventListener('mousedown', (event) => {
    if (blank(event.target)) event.preventDefault(); // the field being edited keeps the focus until the new one takes it
  });
  canvas.addEventListener('click', (event) => {
    if (blank(event.target)) add();
  });

  // Drag and drop: a row's handle drags the row (what is typed is saved first).
  dragRows({ list, tail, rowOf, order: domRows, start: saveAll, moveTo });

  setShowCompleted(showCompleted);
  load();

  return {
    show() { schedule(); },
    async refresh() {
      await load();
      // After a restart the new satchel has no session: the field holding the focus begins one again,
      // and what it refused or never received is sent again.
      const active = document.activeElement;
      const row = rowOf(active);
      if (row && isField(active) && editingId !== row.id) await beginEditing(row);
      for (const each of rows.values()) {
        if (unsaved(each) && each.sentEdits === each.savedEdits) {
          each.sentEdits = -1;
          save(each);
        }
      }
    },
    changed(event) {
      if (event.domain === 'reminders') schedule();
    },
    resync() { schedule(); }, // rows being typed in keep their text, as on any change
    async open(id) {
      if (!rows.has(id)) await load();
      // A reminder further down than what is loaded: the list is read down to it, in large pages.
      while (!rows.has(id) && pages.more) {
        if (!(await loadMore(500))) break;
      }
      const row = rows.get(id);
      if (!row) return;
      row.li.hidden = false; // completed and hidden: in view while the focus is in it
      showEmpty();
      row.li.scrollIntoView({ block: 'center' });
      row.title.focus();
    },
    translate() {
      heading.textContent = t('reminders');
      newLabel.textContent = t('reminders.new');
      empty.textContent = t('reminders.empty');
      completedButton.textContent = t(showCompleted ? 'reminders.hideCompleted' : 'reminders.showCompleted');
      showUndo();
      more.element.textContent = t('loadMore');
      list.setAttribute('aria-label', t('reminders.list'));
      for (const row of rows.values()) translateRow(row);
    },
  };
}
