// Small DOM helpers every screen shares: building elements, showing errors where they happened, dialogs.

/** `h('button', {class: 'x', onclick}, 'text', child)`: an element with attributes, listeners and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name in element && typeof value !== 'string') element[name] = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Shows `error` (an RpcError or any Error) in `place`, an element with `role="alert"`; `null` clears it. */
export function showError(place, error) {
  if (!place) return;
  place.textContent = error ? error.message : '';
  place.hidden = !error;
}

/** An alert line that `showError` fills: put it next to the control the error is about. */
export function errorLine() {
  return h('p', { class: 'error', role: 'alert', hidden: true });
}

/** Opens a modal `<dialog>` with `content`; resolves with the dialog's return value when it closes. */
export function openDialog(content, { label, className = '' } = {}) {
  const dialog = h('dialog', { class: `sheet ${className}`, 'aria-label': label });
  dialog.append(content);
  document.body.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue);
      dialog.remove();
    });
  });
}

/** Asks a yes/no question in a dialog; resolves to true when the user confirms. */
export async function confirmDialog(question, yes, no) {
  const form = h('form', { method: 'dialog', class: 'confirm' },
    h('p', {}, question),
    h('div', { class: 'actions' },
      h('button', { value: 'no', type: 'submit' }, no),
      h('button', { value: 'yes', type: 'submit', class: 'danger' }, yes)));
  return (await openDialog(form, { label: question })) === 'yes';
}

/**
 * Runs `work` at most once per animation frame however often it is asked for (live refreshes), and never twice
 * at once: what is asked while it runs waits for that run to end and is done once after it. A burst of
 * thousands of changes so costs a few runs, each reading what is current when it starts.
 */
export function coalesce(work) {
  let waiting = null; // the run not yet started: every request until it starts shares it
  let previous = Promise.resolve();
  return () => {
    if (!waiting) {
      waiting = previous
        .then(() => new Promise((resolve) => requestAnimationFrame(resolve)))
        .then(() => { waiting = null; return work(); });
      previous = waiting.catch(() => {});
    }
    return waiting;
  };
}

/** A data: URL for a stored image's bytes (`images.get`), cached per image id. */
const imageCache = new Map();
export async function imageURL(rpc, id) {
  if (!imageCache.has(id)) {
    imageCache.set(id, rpc.call('images.get', { id }).then(({ image, data }) => `data:${image.mimeType};base64,${data}`));
  }
  return imageCache.get(id);
}

/** Reads a picked file as base64 (without the data: prefix). */
export function fileToBase64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',', 2)[1]);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * Puts the rows (`{li}`) of `list` in the order of `ordered` without taking out the row that holds the
 * focus, so a field being typed in keeps its caret while a live refresh reorders around it.
 */
export function arrange(list, ordered) {
  const anchor = ordered.find((row) => row.li.contains(document.activeElement));
  if (!anchor) {
    ordered.forEach((row, index) => {
      if (list.children[index] !== row.li) list.insertBefore(row.li, list.children[index] ?? null);
    });
    return;
  }
  const at = ordered.indexOf(anchor);
  let reference = anchor.li;
  for (let index = at - 1; index >= 0; index--) {
    const li = ordered[index].li;
    if (li.nextSibling !== reference) list.insertBefore(li, reference);
    reference = li;
  }
  reference = anchor.li;
  for (let index = at + 1; index < ordered.length; index++) {
    const li = ordered[index].li;
    if (reference.nextSibling !== li) list.insertBefore(li, reference.nextSibling);
    reference = li;
  }
}

/**
 * Elements whose text (or `attribute`) is a word of the page, kept in the current language:
 * `const { label, translate } = labels(t)`; `label(element, key, attribute)` returns the element.
 */
export function labels(t) {
  const all = [];
  const apply = ([element, key, attribute]) => {
    if (attribute) element.setAttribute(attribute, t(key));
    else element.textContent = t(key);
  };
  return {
    label(element, key, attribute) {
      all.push([element, key, attribute]);
      apply([element, key, attribute]);
      return element;
    },
    translate() { all.forEach(apply); },
  };
}

/**
 * Every page of a list method, in order: resolves to `{items, last}`, `last` being the final page's answer
 * (for what a list says beside its items, such as `editingId`).
 */
export async function allPages(rpc, method, params = {}) {
  const items = [];
  let page;
  let cursor = null;
  do {
    page = await rpc.call(method, cursor ? { ...params, limit: 500, cursor } : { ...params, limit: 500 });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return { items, last: page };
}
