// @ts-check
// Completed reminders, hidden until Show Completed, as in iOS (the choice kept in localStorage). A completed row
// stays in view while the focus is in it, or while it holds what the person typed or has to choose, and goes
// when they leave it.
import { extend, t } from './i18n.js';
import { unsaved } from './reminder-row.js';
import { h } from './ui.js';

extend({
  en: {
    'reminders.showCompleted': 'Show Completed',
    'reminders.hideCompleted': 'Hide Completed',
  },
  ru: {
    'reminders.showCompleted': 'Показать выполненные',
    'reminders.hideCompleted': 'Скрыть выполненные',
  },
  ja: {
    'reminders.showCompleted': '実行済みを表示',
    'reminders.hideCompleted': '実行済みを非表示',
  },
});

const STORED = 'satchel.reminders.showCompleted';

/**
 * The Show Completed button (`button`, for the screen to place) and which rows are on screen, over the screen's
 * `rows`: `shows(row, focused)`, `showRows(focused)`, `showEmpty()` (the empty state, once `loaded`), and
 * `translate()`. Its `start()` shows the stored choice; `leaving(list, rowOf)` hides a completed row the person
 * leaves.
 * @param {{rows: Map<string, any>, empty: HTMLElement, card: HTMLElement, loaded: boolean}} ctx
 */
export function completedRows(ctx) {
  const { rows, empty, card } = ctx;
  let showCompleted = localStorage.getItem(STORED) === 'true';
  const button = h('button', { type: 'button', class: 'rem-show-completed', onclick: () => setShowCompleted(!showCompleted) });

  /**
   * Whether the row is on screen: not completed, or completed with Show Completed on, or holding the focus
   * (`focused`, the element that has or takes it) or what the person typed or has to choose.
   * @param {any} row
   * @param {EventTarget | null} [focused]
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
    localStorage.setItem(STORED, String(on));
    button.textContent = t(on ? 'reminders.hideCompleted' : 'reminders.showCompleted');
    showRows();
  }

  function showEmpty() {
    const none = ![...rows.values()].some((row) => !row.li.hidden);
    empty.hidden = !ctx.loaded || !none;
    card.hidden = none;
  }

  /**
   * A completed row the person leaves goes: at once when the keyboard leaves it, once the pointer is released
   * when a press does (rows moving under a pressed pointer would change what it clicks), never when the
   * window only loses the focus. Called before the list's other `focusout` listeners, which it runs before.
   * @param {HTMLElement} list
   * @param {(element: any) => any} rowOf
   */
  function leaving(list, rowOf) {
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
    });
  }

  return {
    button,
    shows,
    showRows,
    showEmpty,
    leaving,
    start() { setShowCompleted(showCompleted); },
    translate() { button.textContent = t(showCompleted ? 'reminders.hideCompleted' : 'reminders.showCompleted'); },
  };
}
