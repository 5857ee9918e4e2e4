"""Browser gestures WebDriver cannot make by itself."""
from __future__ import annotations


def drag(page, handle, target, above: bool) -> None:
    """Drags `handle` onto the upper (or lower) quarter of `target` with the browser's drag events: the
    dragstart, dragenter, dragover, drop and dragend that a mouse drag fires, carrying one DataTransfer
    (WebDriver's pointer actions do not start HTML5 drag and drop in Chromium)."""
    page.driver.execute_script(
        """
        const [handle, target, above] = arguments;
        const data = new DataTransfer();
        const from = handle.getBoundingClientRect();
        const to = target.getBoundingClientRect();
        const x = to.left + to.width / 2;
        const y = above ? to.top + to.height / 4 : to.bottom - to.height / 4;
        const fire = (element, type, clientX, clientY) => element.dispatchEvent(new DragEvent(type,
          { bubbles: true, cancelable: true, composed: true, dataTransfer: data, clientX, clientY }));
        fire(handle, 'dragstart', from.left + 4, from.top + 4);
        const over = document.elementFromPoint(x, y);
        fire(over, 'dragenter', x, y);
        if (fire(over, 'dragover', x, y)) throw new Error('the row under the pointer refuses the drop');
        fire(over, 'drop', x, y);
        fire(handle, 'dragend', x, y);
        """,
        handle, target, above)
