// @ts-check
// Undo after a reminder is removed: a reminder the empty-title cleanup took (its title cleared), notes and all,
// is offered back below the list until the person's next change; Undo adds it again where it was, with its
// title, notes and completion.
import { extend, t } from './i18n.js';
import { h } from './ui.js';

extend({
  en: { 'reminders.undo': 'Undo' },
  ru: { 'reminders.undo': 'Вернуть' },
  ja: { 'reminders.undo': '取り消す' },
});

/**
 * The bar offering a removed reminder back (`bar`, for the screen to place; `button`, its Undo, which takes the
 * focus the row had). Adding it again goes through the screen's `add`, `moveTo` and `showState`.
 * @param {{rpc: import('./rpc.js').Rpc, rows: Map<string, any>, add: (params?: any) => Promise<any>,
 *   moveTo: (row: any, toIndex: number) => Promise<void>, showState: (row: any, item: any) => void}} ctx
 */
export function undoBar(ctx) {
  const { rpc, rows } = ctx;
  const text = h('span', { class: 'rem-undo-text' });
  const button = h('button', { type: 'button', class: 'rem-undo-button', onclick: () => undoRemoval() });
  const bar = h('p', { class: 'rem-undo', role: 'status', hidden: true }, text, button);
  /** @type {{title: string, memo: string, completed: boolean, afterId: string | null} | null} */
  let undone = null;

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
    bar.hidden = !undone;
    text.textContent = undone ? t('reminders.deleted', { title: undone.title || t('reminders.new') }) : '';
    button.textContent = t('reminders.undo');
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
    const row = await ctx.add(params);
    if (!row) return;
    if (!what.afterId) await ctx.moveTo(row, 0);
    if (what.completed) await rpc.call('reminders.setCompleted', { id: row.id, completed: true }).then((item) => ctx.showState(row, item), () => {});
  }

  return { bar, button, offerUndo, showUndo, dropUndo };
}
