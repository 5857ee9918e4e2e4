// @ts-check
// Drag and drop of a list's rows (by their handles, or whole), as the original's reorder control: a row lands
// before or after the row under the pointer (the half it is over says which), or last when dropped on `tail`.
// While dragging, the row is `.dragging` and the place it would land is marked `.drop-before`, `.drop-after`
// or (the tail) `.drop-target`. Notes and Reminders both reorder through it.
const DRAG_TYPE = 'application/x-satchel-row';

/**
 * Makes the rows of `list` draggable by their `handle` (or, for rows without one, by the row itself).
 * - `rowOf(element)`: the row (`{ id, li, handle? }`) an element belongs to, if any;
 * - `order()`: the rows as shown, top to bottom;
 * - `start(row)`: called as a drag begins; `moveTo(row, toIndex)`: called on a drop, with the row's new index;
 * - `tail` (optional): an element below the rows where a drop puts the row last.
 */
/**
 * @param {{list: HTMLElement, tail?: HTMLElement | null, rowOf: (element: any) => any, order: () => any[],
 *   start?: (row: any) => void, moveTo: (row: any, toIndex: number) => void}} options
 */
export function dragRows({ list, tail = null, rowOf, order, start = () => {}, moveTo }) {
  let dragged = null;

  function clearDrop() {
    for (const li of list.querySelectorAll('.drop-before, .drop-after')) li.classList.remove('drop-before', 'drop-after');
    tail?.classList.remove('drop-target');
  }

  list.addEventListener('dragstart', (event) => {
    const row = rowOf(event.target);
    if (!row || event.target !== (row.handle ?? row.li)) return;
    start(row);
    dragged = row;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(DRAG_TYPE, row.id);
    const box = row.li.getBoundingClientRect();
    event.dataTransfer.setDragImage?.(row.li, event.clientX - box.left, event.clientY - box.top);
    row.li.classList.add('dragging');
  });

  /** Where a drop at `event` would land: next to which row, and after it or not. */
  function dropPlace(event) {
    if (!dragged) return null;
    const target = rowOf(event.target);
    if (target) {
      const box = target.li.getBoundingClientRect();
      return { row: target, after: event.clientY > box.top + box.height / 2 };
    }
    if (event.currentTarget === tail) return { row: order().at(-1), after: true };
    return null;
  }

  for (const zone of tail ? [list, tail] : [list]) {
    zone.addEventListener('dragover', (event) => {
      const place = dropPlace(event);
      if (!place?.row) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      clearDrop();
      if (zone === tail) tail.classList.add('drop-target');
      else place.row.li.classList.add(place.after ? 'drop-after' : 'drop-before');
    });
    zone.addEventListener('drop', (event) => {
      const place = dropPlace(event);
      clearDrop();
      if (!place?.row) return;
      event.preventDefault();
      const rows = order();
      const from = rows.indexOf(dragged);
      const slot = rows.indexOf(place.row) + (place.after ? 1 : 0);
      const row = dragged;
      dragged = null;
      row.li.classList.remove('dragging');
      moveTo(row, slot > from ? slot - 1 : slot);
    });
  }
  list.addEventListener('dragleave', (event) => {
    if (!list.contains(/** @type {Node | null} */ (event.relatedTarget))) clearDrop();
  });
  tail?.addEventListener('dragleave', clearDrop);
  list.addEventListener('dragend', () => {
    clearDrop();
    dragged?.li.classList.remove('dragging');
    dragged = null;
  });
}

/** Alt+ArrowUp/Down on a row of `list` moves it one place (`moveTo(row, toIndex)`), for the keyboard. */
export function keyboardRows({ list, rowOf, order, moveTo }) {
  list.addEventListener('keydown', (event) => {
    const step = { ArrowUp: -1, ArrowDown: 1 }[event.key];
    const row = rowOf(event.target);
    if (!event.altKey || !step || !row) return;
    event.preventDefault();
    const rows = order();
    const to = rows.indexOf(row) + step;
    if (to >= 0 && to < rows.length) moveTo(row, to);
  });
}
