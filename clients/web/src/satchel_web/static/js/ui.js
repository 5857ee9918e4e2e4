// @ts-check
// Small DOM helpers every screen shares: building elements, showing errors where they happened, dialogs.

import { t } from './i18n.js';
import { opened } from './navigation.js';

/**
 * `h('button', {class: 'x', onclick, style: {'--cell': '#fff'}}, 'text', child)`: an element with attributes,
 * listeners, custom properties and children.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    // Styles through the CSSOM only (never a style attribute: the page's CSP allows no inline style).
    else if (name === 'style') for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, setting);
    else if (name in element && typeof value !== 'string') element[name] = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** The places showing a server's error now: each says it again when the page's language changes. */
const shownErrors = new Map(); // place → the RpcError it shows

/**
 * Shows `error` (an RpcError or any Error) in `place`, an element with `role="alert"`; `null` clears it. An
 * error the page words itself has `say()`, which words it in the current language.
 */
export function showError(place, error) {
  if (!place) return;
  place.textContent = error ? error.message : '';
  place.hidden = !error;
  if (error && ('code' in error || error.say)) shownErrors.set(place, error);
  else shownErrors.delete(place);
}

/**
 * Says every server error on screen again in the session's language (just changed), as the server words it
 * (`server.describeError`), or the page when it words the error itself (`say`): an error never stays in the
 * language the page left.
 * @param {import('./rpc.js').Rpc} rpc
 */
export async function retranslateErrors(rpc) {
  await Promise.all([...shownErrors].map(async ([place, error]) => {
    if (!place.isConnected) {
      shownErrors.delete(place);
      return;
    }
    if (typeof error.say === 'function') { // worded by the page: in its words, in the new language
      place.textContent = error.message = error.say();
      return;
    }
    try {
      const { message } = await rpc.call('server.describeError', { code: error.code, data: error.data ?? {} });
      if (shownErrors.get(place) !== error) return; // replaced meanwhile
      error.message = message;
      place.textContent = message;
    } catch {
      // an error the server cannot say again keeps its words
    }
  }));
}

/** An alert line that `showError` fills: put it next to the control the error is about. */
export function errorLine() {
  return h('p', { class: 'error', role: 'alert', hidden: true });
}

/**
 * The control in `opener`'s place once a refresh drew its item again: the same item's (by `data-id`), of the
 * same kind.
 * @param {HTMLElement} opener
 * @returns {HTMLElement | null}
 */
export function twinOf(opener) {
  const item = /** @type {HTMLElement | null} */ (opener.closest('[data-id]'));
  if (!item) return null;
  const twin = document.querySelector(`${item.tagName.toLowerCase()}[data-id="${CSS.escape(item.dataset.id)}"]`);
  const kind = opener.tagName.toLowerCase() + (opener.classList.length ? `.${CSS.escape(opener.classList[0])}` : '');
  return /** @type {HTMLElement | null} */ (!twin || opener === item ? twin : twin.querySelector(kind));
}

/**
 * The browser's Back closes `dialog` (opened) as Escape does: its `cancel` comes first, and a sheet that asks
 * before dropping what was typed asks. `item`: what it shows, which Forward opens again.
 * @param {HTMLDialogElement} dialog
 * @param {{domain: string, id: string} | null} [item]
 */
export function closedByBack(dialog, item = null) {
  const layer = opened({
    item,
    dismiss() {
      if (dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
    },
  });
  dialog.addEventListener('close', () => layer.closed(), { once: true });
}

/**
 * Opens a modal `<dialog>` with `content`; resolves with the dialog's return value when it closes. The focus
 * then returns to the control that opened it, or to the one in its place when a refresh drew it again
 * meanwhile (never to the page itself). Back closes it; `item` (the note, photo or message it shows) opens
 * again on Forward.
 * @param {Node} content
 * @param {{label?: string, className?: string, item?: {domain: string, id: string} | null}} [options]
 * @returns {Promise<string>}
 */
export function openDialog(content, options = {}) {
  const { label, className = '', item = null } = options;
  const opener = document.activeElement;
  const dialog = /** @type {HTMLDialogElement} */ (h('dialog', { class: `sheet ${className}`, 'aria-label': label }));
  dialog.append(content);
  document.body.append(dialog);
  dialog.showModal();
  closedByBack(dialog, item);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue);
      dialog.remove();
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost && opener instanceof HTMLElement) (opener.isConnected ? opener : twinOf(opener))?.focus();
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

/**
 * Where the bridge serves a stored image as an image (`GET /images/ID?size=`): `thumbnail` (at most 320
 * px a side) for lists and grids, `display` (1600) for one photo on screen: the server's renditions, which
 * say nothing of where a photo was taken (the bridge serves no original). The browser fetches, decodes and
 * caches it as any image; a failed load is not cached, so it is asked again.
 * @param {string} id
 * @param {'thumbnail' | 'display'} [size]
 */
export function imageURL(id, size = 'display') {
  return `/images/${encodeURIComponent(id)}?size=${size}`;
}

/**
 * An <img> of a stored image, fetched when it comes near the screen, its box sized from the start (nothing
 * jumps when it arrives); `alt` describes it.
 * @param {{id: string, width: number, height: number}} image
 * @param {Record<string, any>} [attributes]
 * @param {'thumbnail' | 'display'} [size]
 */
export function storedImage(image, attributes = {}, size = 'thumbnail') {
  const img = h('img', {
    alt: '', loading: 'lazy', decoding: 'async', width: image.width, height: image.height, ...attributes,
    src: imageURL(image.id, size),
  });
  img.dataset.imageId = image.id;
  img.addEventListener('error', () => img.classList.add('missing'));
  img.addEventListener('load', () => img.classList.remove('missing'));
  return img;
}

/**
 * Sends a picked photo to the bridge as the file it is (`POST /uploads`), which hands it to this page's
 * satchel in chunks: no message carries it whole, and `onProgress(fraction)` follows it. Resolves with
 * `{uploadId}`, the image input to save; rejects with the server's words (too large, not an image).
 * @param {{page?: string | null}} rpc
 * @param {Blob} file
 * @param {(fraction: number) => void} [onProgress]
 * @returns {Promise<{uploadId: string}>}
 */
export function uploadImage(rpc, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/uploads?page=${encodeURIComponent(rpc.page ?? '')}`);
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const body = xhr.response;
      if (xhr.status === 200 && body?.uploadId) {
        onProgress?.(1);
        resolve({ uploadId: body.uploadId });
      } else {
        const refusal = body?.error ?? {};
        reject(Object.assign(new Error(refusal.message ?? t('uploadFailed')), {
          code: refusal.code ?? -32603, data: refusal.data ?? null, reason: refusal.data?.reason ?? null,
        }));
      }
    });
    xhr.addEventListener('error', () => reject(Object.assign(new Error(t('uploadFailed')), { reason: 'notSent' })));
    xhr.send(file);
  });
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

/** How many items a long list reads at a time: the first page shows at once, the next ones as the person scrolls. */
export const PAGE = 100;

/**
 * A list method (`{limit, cursor}` → `{items, nextCursor}`) read from its start a page at a time: `items` is what
 * is loaded, `last` the latest answer (for what a list says beside its items, such as `editingId`), `more`
 * whether the list goes on. `next(limit)` reads the next page and resolves to the items it added; `reload(count)`
 * reads again from the start as many items as are loaded (at least `count` and a page), so a refresh costs what
 * is shown, not the whole list. Reads wait for each other: a page is never asked with a cursor older than the
 * items.
 */
export function pagedList(rpc, method, size = PAGE) {
  let cursor = null;
  /** @type {Promise<unknown>} */
  let turn = Promise.resolve();
  const read = (limit, after) => rpc.call(method, after ? { limit, cursor: after } : { limit });
  /** @template T @param {() => Promise<T>} work @returns {Promise<T>} */
  const queued = (work) => {
    const run = /** @type {Promise<T>} */ (turn.then(work, work));
    turn = run.catch(() => {});
    return run;
  };
  const list = {
    items: [],
    last: null,
    more: false,
    next: (limit = size) => queued(async () => {
      if (list.last && !cursor) return [];
      const page = await read(limit, cursor);
      const known = new Set(list.items.map((item) => item.id)); // an item moved down meanwhile is not shown twice
      const added = page.items.filter((item) => !known.has(item.id));
      list.items = [...list.items, ...added];
      cursor = page.nextCursor;
      list.last = page;
      list.more = Boolean(cursor);
      return added;
    }),
    reload: (count = 0) => queued(async () => {
      const wanted = Math.max(count, list.items.length, size);
      const items = [];
      let page;
      let after = null;
      do {
        page = await read(Math.min(500, wanted - items.length), after);
        items.push(...page.items);
        after = page.nextCursor;
      } while (after && items.length < wanted);
      list.items = items;
      cursor = after;
      list.last = page;
      list.more = Boolean(after);
      return items;
    }),
  };
  return list;
}

/**
 * The end of a list read a page at a time: a "Load more" button that coming near presses by itself (an
 * IntersectionObserver with a screen's height of margin), so the next page is there before the person reaches
 * the end; the button stays for the keyboard and for browsers that scroll without it. `load()` reads and shows
 * the next page; `show(more)` says whether there is one.
 */
export function moreButton(load) {
  const button = h('button', { type: 'button', class: 'button load-more', hidden: true });
  let loading = null;
  const observer = new IntersectionObserver((entries) => {
    if (entries.at(-1).isIntersecting) press();
  }, { rootMargin: '0px 0px 100% 0px' });
  // Observing anew reports where the button is now: still in view after a page came, the next one comes too.
  const look = () => {
    observer.unobserve(button);
    observer.observe(button);
  };
  function press() {
    if (button.hidden || loading) return loading;
    button.setAttribute('aria-busy', 'true');
    loading = Promise.resolve(load()).finally(() => {
      loading = null;
      button.removeAttribute('aria-busy');
      look();
    });
    return loading;
  }
  button.addEventListener('click', press);
  return {
    element: button,
    press,
    show(more) {
      button.hidden = !more;
      if (more) look();
    },
  };
}
