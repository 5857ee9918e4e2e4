// @ts-check
// Reminders: the list in the user's order, edited in place as the original app does. A click on the empty
// screen or below the last row adds one, Return inserts the next, leaving the title ends editing (the server
// removes a blank one), the memo shows when the server says so, a circle completes, rows move by drag or
// Alt+Arrow. Every rule and every order comes from the server; the page only shows its answers. A long list is
// read a page at a time as the person scrolls; a refresh reads again what is shown. Completed reminders are
// hidden until Show Completed, as in iOS. A reminder deleted or changed elsewhere while the person is in its
// row stays, with what they typed, until they choose.
//
// This module is the screen: its elements, what the person's keys and pointer do, and what the page asks of
// it. The rest is in modules of their own, sharing one context (`RemindersContext`): the list and its reading
// (reminder-list.js), a row's saving and the calls (reminder-editing.js), changes made elsewhere
// (reminder-elsewhere.js), Undo (reminder-undo.js) and Show Completed (reminder-completed.js); a row itself is
// reminder-row.js's.
import { errorLine, h, moreButton, pagedList } from './ui.js';
import { extend, t } from './i18n.js';
import { dragRows } from './dragrows.js';
import { icon } from './icons.js';
import { completedRows } from './reminder-completed.js';
import { editing } from './reminder-editing.js';
import { elsewhere } from './reminder-elsewhere.js';
import { listRows } from './reminder-list.js';
import { translateRow, unsaved } from './reminder-row.js';
import { undoBar } from './reminder-undo.js';

extend({
  en: {
    'reminders.empty': 'No Reminders',
    'reminders.new': 'New Reminder',
    'reminders.list': 'Reminders',
  },
  ru: {
    'reminders.empty': 'Нет напоминаний',
    'reminders.new': 'Новое напоминание',
    'reminders.list': 'Напоминания',
  },
  ja: {
    'reminders.empty': 'リマインダーなし',
    'reminders.new': '新規リマインダー',
    'reminders.list': 'リマインダー',
  },
});

/**
 * What the Reminders modules share: the screen's rows, state and elements, and each module's functions, put
 * here as the screen is mounted so that one module calls another's through it. A row (`any`) is
 * reminder-row.js's: {id, li, check, title, memo, error, handle, remove, server, edits, sentEdits, savedEdits,
 * timer, failed, …}.
 * @typedef {object} RemindersContext
 * @property {import('./rpc.js').Rpc} rpc
 * @property {Map<string, any>} rows id → row
 * @property {string | null} editingId The reminder whose editing session the server holds, as last known.
 * @property {number} sessionCalls Counts the calls that start or end an editing session, so a listing older
 *   than one is not believed.
 * @property {boolean} loaded Whether the list was read once (till then, no empty state).
 * @property {{row: any, typed: string} | null} pendingSubmit While Return waits for the next reminder: where
 *   the keys typed meanwhile go.
 * @property {boolean} quiet True while the page itself moves or removes rows: focus events then are not the user's.
 * @property {HTMLElement} heading Where the focus goes when the row holding it goes by no act of the person's.
 * @property {HTMLElement} newButton
 * @property {HTMLElement} listError
 * @property {HTMLElement} status What the screen says to a screen reader (a row moved or deleted).
 * @property {HTMLElement} list
 * @property {HTMLElement} empty
 * @property {HTMLElement} card
 * @property {ReturnType<typeof pagedList>} pages
 * @property {ReturnType<typeof moreButton>} more
 * @property {HTMLElement} undoButton
 * @property {(element: any) => boolean} isField
 * @property {() => any[]} domRows The rows as shown, top to bottom.
 * @property {(item: any) => any} createRow
 * @property {(item: any, afterId?: string | null) => any} insertRow
 * @property {(id: string, byPerson?: boolean, focusTo?: HTMLElement | null) => void} removeRow
 * @property {(ordered: any[]) => void} arrangeRows
 * @property {(row: any, item: any) => void} showState
 * @property {() => Promise<void>} load
 * @property {(limit?: number) => Promise<any[] | null>} loadMore
 * @property {() => Promise<void>} schedule
 * @property {(row: any, focused?: any) => boolean} shows
 * @property {(focused?: any) => void} showRows
 * @property {() => void} showEmpty
 * @property {(row: any, typed?: string) => void} focusTitle
 * @property {(row: any) => void} edited
 * @property {(row: any) => void} save
 * @property {() => void} saveAll
 * @property {(params?: any) => Promise<any>} add
 * @property {(row: any) => Promise<void>} submit
 * @property {(row: any) => Promise<void>} beginEditing
 * @property {(row: any) => Promise<void>} endEditing
 * @property {(row: any) => Promise<void>} toggle
 * @property {(row: any) => Promise<void>} remove
 * @property {(row: any, toIndex: number) => Promise<void>} moveTo
 * @property {(row: any) => void} markDeleted
 * @property {(row: any, item: any) => boolean} ours
 * @property {(row: any, item: any) => boolean} arrived
 * @property {(row: any, error: any) => boolean} gone
 * @property {(row: any) => Promise<void>} keep
 * @property {(row: any) => void} theirs
 * @property {(ids: string[] | null | undefined) => void} removeRows
 * @property {(row: any, afterId: string | null) => Promise<boolean>} rescue
 * @property {(row: any) => boolean} offerUndo
 * @property {() => void} dropUndo
 */

/**
 * Mounts the screen in `section`.
 * @param {HTMLElement} section
 * @param {import('./types.js').Context} context
 * @returns {import('./types.js').Screen}
 */
export function mount(section, { rpc }) {
  // Where the focus goes when the row holding it goes by no act of the person's: to no other reminder.
  const heading = h('h2', { class: 'rem-heading', tabindex: '-1' }, t('reminders'));
  const newLabel = h('span', {}, t('reminders.new'));
  const newButton = h('button', { type: 'button', class: 'rem-new', onclick: () => ctx.add() }, icon('add'), newLabel);
  const list = h('ul', { class: 'list rem-list', 'aria-label': t('reminders.list') });
  const empty = h('p', { class: 'empty rem-empty', hidden: true }, t('reminders.empty'));
  const tail = h('div', { class: 'rem-tail' });
  const card = h('div', { class: 'card rem-card', hidden: true }, list);
  const more = moreButton(() => ctx.loadMore());
  more.element.textContent = t('loadMore');
  const canvas = h('div', { class: 'rem-canvas' }, card, more.element, empty, tail);
  const ctx = /** @type {RemindersContext} */ ({
    rpc, rows: new Map(), editingId: null, sessionCalls: 0, loaded: false, pendingSubmit: null, quiet: false,
    heading, newButton, listError: errorLine(), status: h('p', { class: 'visually-hidden', role: 'status' }), list,
    empty, card, pages: pagedList(rpc, 'reminders.list'), more,
  });
  const { rows } = ctx;
  const completed = completedRows(ctx);
  // A reminder the empty-title cleanup took, notes and all, and Undo (until the person's next change).
  const undo = undoBar(ctx);
  Object.assign(ctx, listRows(ctx), editing(ctx), elsewhere(ctx), {
    shows: completed.shows, showRows: completed.showRows, showEmpty: completed.showEmpty,
    offerUndo: undo.offerUndo, dropUndo: undo.dropUndo, undoButton: undo.button,
  });
  section.classList.add('reminders');
  section.append(h('div', { class: 'toolbar rem-toolbar' }, heading, newButton), h('div', { class: 'rem-filter' }, completed.button),
    ctx.listError, ctx.status, canvas, undo.bar);

  const rowOf = (element) => (element instanceof Element
    ? rows.get(/** @type {HTMLElement | null} */ (element.closest('li.rem-row'))?.dataset.id) : undefined);
  const { isField } = ctx;

  // The user's hands

  list.addEventListener('input', (event) => {
    const row = rowOf(event.target);
    if (row && isField(event.target)) ctx.edited(row);
  });

  list.addEventListener('focusin', (event) => {
    if (ctx.quiet) return;
    const row = rowOf(event.target);
    if (row && isField(event.target) && ctx.editingId !== row.id && !row.deleted) ctx.beginEditing(row);
  });

  completed.leaving(list, rowOf); // before the focusout below: a completed row the person leaves goes

  list.addEventListener('focusout', (event) => {
    if (ctx.quiet) return;
    const row = rowOf(event.target);
    if (!row || !rows.has(row.id) || row.deleted) return;
    if (document.activeElement === event.target) return; // the window lost focus; the field keeps it
    const to = event.relatedTarget;
    if (to && rowOf(to) === row) return;
    if (to && isField(to)) return; // the field taking the focus begins its own editing
    if (ctx.editingId === row.id) ctx.endEditing(row);
  });

  list.addEventListener('keydown', (event) => {
    const row = rowOf(event.target);
    if (!row) return;
    const vertical = event.key === 'ArrowUp' || event.key === 'ArrowDown';
    if (vertical && (event.altKey || (event.target === row.handle && !event.ctrlKey && !event.metaKey))) {
      event.preventDefault();
      // One place up or down among the rows on screen: past the hidden completed ones.
      const order = ctx.domRows();
      const onScreen = order.filter((each) => !each.li.hidden);
      const next = onScreen[onScreen.indexOf(row) + (event.key === 'ArrowUp' ? -1 : 1)];
      if (next) ctx.moveTo(row, order.indexOf(next));
      return;
    }
    if (!isField(event.target) || event.isComposing || event.keyCode === 229) return;
    if (ctx.pendingSubmit?.row === row) {
      // Keys typed while Return waits for the next reminder belong to the next reminder.
      if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        ctx.pendingSubmit.typed += event.key;
      } else if (event.key === 'Backspace' && ctx.pendingSubmit.typed) {
        event.preventDefault();
        ctx.pendingSubmit.typed = ctx.pendingSubmit.typed.slice(0, -1);
      } else if (event.key === 'Enter') {
        event.preventDefault();
      }
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      ctx.submit(row); // not for a reminder deleted elsewhere: its notice offers what to do
    } else if (event.key === 'Escape') {
      // The keyboard is dismissed: editing ends, and the focus stays on the row (its circle), not the page
      // (on the next row's, when the row was blank and goes).
      event.preventDefault();
      row.check.focus();
      if (ctx.editingId === row.id) ctx.endEditing(row);
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
    if (blank(event.target)) ctx.add();
  });

  // Drag and drop: a row's handle drags the row (what is typed is saved first).
  dragRows({ list, tail, rowOf, order: ctx.domRows, start: ctx.saveAll, moveTo: ctx.moveTo });

  completed.start();
  ctx.load();

  return {
    show() { ctx.schedule(); },
    async refresh() {
      await ctx.load();
      // After a restart the new satchel has no session: the field holding the focus begins one again,
      // and what it refused or never received is sent again.
      const active = document.activeElement;
      const row = rowOf(active);
      if (row && isField(active) && ctx.editingId !== row.id) await ctx.beginEditing(row);
      for (const each of rows.values()) {
        if (unsaved(each) && each.sentEdits === each.savedEdits) {
          each.sentEdits = -1;
          ctx.save(each);
        }
      }
    },
    changed(event) {
      if (event.domain === 'reminders') ctx.schedule();
    },
    resync() { ctx.schedule(); }, // rows being typed in keep their text, as on any change
    async open(id) {
      if (!rows.has(id)) await ctx.load();
      // A reminder further down than what is loaded: the list is read down to it, in large pages.
      while (!rows.has(id) && ctx.pages.more) {
        if (!(await ctx.loadMore(500))) break;
      }
      const row = rows.get(id);
      if (!row) return;
      row.li.hidden = false; // completed and hidden: in view while the focus is in it
      ctx.showEmpty();
      row.li.scrollIntoView({ block: 'center' });
      row.title.focus();
    },
    translate() {
      heading.textContent = t('reminders');
      newLabel.textContent = t('reminders.new');
      empty.textContent = t('reminders.empty');
      completed.translate();
      undo.showUndo();
      more.element.textContent = t('loadMore');
      list.setAttribute('aria-label', t('reminders.list'));
      for (const row of rows.values()) translateRow(row);
    },
  };
}