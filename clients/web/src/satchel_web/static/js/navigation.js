// @ts-check
// The browser's Back and Forward inside the page (the History API). Switching apps makes an entry, and so does
// each thing opened over an app (a sheet, an opened post): Back closes the topmost as Escape would (a sheet
// holding something typed asks first, and stays if the person keeps editing), then returns to the previous
// app; Forward goes to the next app, or opens again the post, note or message that Back closed. The address
// shows `#app` only: the token, gone from it once the page has loaded, never comes back.
//
// Each entry's state is `{app, query?, layers, opened}`: the keys of what was open there, and the key of the
// layer whose opening made it (null for an app's own entry). When a layer closes by itself (Save, Close), its
// entry is left with one step back, so Back never stops at something no longer there.

/** @typedef {{domain: string, id: string}} Item */
/** @typedef {{key: string, item?: Item, dismiss: () => void}} Layer */

/** @type {Layer[]} what is open over the apps, the topmost last */
const open = [];
/** @type {Set<string>} items Forward is opening again */
const reopening = new Set();
let moving = false; // the page itself stepped back: the popstate that follows is its own
let serial = 0;
/**
 * What the page does for the history.
 * @typedef {object} Hooks
 * @property {() => string} current The app shown.
 * @property {(app: string, state: any) => unknown} show Shows an app (or the search), making no entry.
 * @property {(domain: string, id: string) => unknown} openItem Opens an item, as a search hit does.
 */
/** @type {Hooks} */
let hooks = { current: () => '', show: () => undefined, openItem: () => undefined };

const here = () => history.state ?? {};
const isOpen = (/** @type {string} */ key) => open.some((layer) => layer.key === key) || reopening.has(key);
const itemOf = (/** @type {string} */ key) => {
  const at = key.indexOf(':');
  return at > 0 && !key.startsWith('layer:') ? { domain: key.slice(0, at), id: key.slice(at + 1) } : null;
};

/** Makes the history say what is shown: steps back over an entry whose layer closed, adds one for each layer opened. */
function reconcile() {
  if (moving) return;
  const state = here();
  if (state.opened && !isOpen(state.opened)) {
    moving = true;
    history.back();
    return;
  }
  const have = state.layers ?? [];
  const want = open.map((layer) => layer.key);
  const app = state.app ?? hooks.current();
  if (have.length <= want.length && have.every((key, index) => key === want[index])) {
    for (let count = have.length + 1; count <= want.length; count++) {
      history.pushState({ app, query: state.query, layers: want.slice(0, count), opened: want[count - 1] }, '');
    }
  } else {
    history.replaceState({ ...state, app, layers: want }, '');
  }
}

addEventListener('popstate', () => {
  if (moving) {
    moving = false;
    reconcile();
    return;
  }
  const state = here();
  const listed = state.layers ?? [];
  // Back over something open: the topmost of what this entry does not list is asked to close.
  const over = open.filter((layer) => !listed.includes(layer.key));
  if (over.length) {
    over[over.length - 1].dismiss();
    reconcile();
    return;
  }
  // Forward onto the entry an item's opening made: the item opens again.
  const item = state.opened && !isOpen(state.opened) ? itemOf(state.opened) : null;
  if (item) {
    const key = state.opened;
    reopening.add(key);
    Promise.resolve(hooks.openItem(item.domain, item.id)).catch(() => {}).finally(() => {
      reopening.delete(key);
      reconcile();
    });
    return;
  }
  if (state.app && (state.app !== hooks.current() || state.app === 'search')) hooks.show(state.app, state);
  reconcile();
});

/**
 * Starts with `app` shown: the entry the page loaded on becomes its (the token leaves the address).
 * @param {string} app
 * @param {Hooks} pageHooks
 */
export function start(app, pageHooks) {
  hooks = pageHooks;
  history.replaceState({ app, layers: [], opened: null }, '', `${location.pathname}#${app}`);
}

/**
 * The person went to `app` (a tab, a search): an entry of its own, Back returns to where they were.
 * @param {string} app
 * @param {{query?: string}} [extra]
 */
export function went(app, extra = {}) {
  if (!history.state || (here().app === app && app !== 'search')) return;
  history.pushState({ app, ...extra, layers: open.map((layer) => layer.key), opened: null }, '', `${location.pathname}#${app}`);
}

/**
 * Something opened over the app (`item`: the post, note, photo or message it shows): Back asks it to close
 * (`dismiss`, as Escape would), Forward opens the item again. Call `closed()` when it closes, however it does.
 * @param {{item?: Item | null, dismiss: () => void}} layer
 */
export function opened({ item = null, dismiss }) {
  const key = item ? `${item.domain}:${item.id}` : `layer:${++serial}`;
  const layer = { key, dismiss };
  open.push(layer);
  reopening.delete(key);
  if (history.state) reconcile();
  let done = false;
  return {
    closed() {
      if (done) return;
      done = true;
      open.splice(open.indexOf(layer), 1);
      if (history.state) reconcile();
    },
  };
}
