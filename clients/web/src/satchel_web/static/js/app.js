// @ts-check
// The page: one connection, five apps as tabs, search across them, the language switch, the data panel (export
// and import), the status banner; Back and Forward between the apps (navigation.js).
import { Rpc } from './rpc.js';
import { language, setLanguage, t } from './i18n.js';
import { errorLine, h, retranslateErrors, showError } from './ui.js';
import * as moments from './moments.js';
import * as reminders from './reminders.js';
import * as messages from './messages.js';
import * as notes from './notes.js';
import * as board from './board.js';
import * as data from './data.js';
import { syncState } from './sync-state.js';
import * as navigation from './navigation.js';

const modules = { moments, reminders, messages, notes, board };
// Which app shows a search hit of each domain.
const appOfDomain = { notes: 'notes', photos: 'notes', diary: 'moments', reminders: 'reminders', messages: 'messages', board: 'board' };

const rpc = new Rpc(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
const screens = {};
let currentApp = null;
let started = false;

/** @type {import('./types.js').Context & {t: typeof t}} */
const context = {
  rpc,
  t,
  /** Shows the app that owns `domain` and opens the item `id` in it. */
  openItem(domain, id) {
    const app = appOfDomain[domain];
    select(app);
    return screens[app].open?.(id, domain);
  },
};

/** Shows `app`; `entry`: the person went there (a tab, a search hit), so Back returns from it. */
function select(app, { focus = false, entry = true } = {}) {
  if (currentApp !== app) screens[currentApp]?.hide?.(); // what it was waiting for, it no longer needs
  currentApp = app;
  if (entry) navigation.went(app);
  for (const tab of tabElements()) {
    const selected = tab.dataset.app === app;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    if (selected && focus) tab.focus();
  }
  for (const section of sections()) section.hidden = section.dataset.app !== app;
  screens[app]?.show?.();
}

/** The tabs, and the sections they show. */
const tabElements = () => /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[role="tab"]')]);
const sections = () => /** @type {HTMLElement[]} */ ([...document.querySelectorAll('main > section')]);

function setupTabs() {
  const tabs = tabElements();
  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab.dataset.app));
    tab.addEventListener('keydown', (/** @type {KeyboardEvent} */ event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
      select(next.dataset.app, { focus: true });
    });
  }
}

function translatePage() {
  document.documentElement.lang = language();
  for (const element of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-i18n]'))) {
    element.textContent = t(element.dataset.i18n);
  }
  const search = /** @type {HTMLInputElement} */ (document.getElementById('search-input'));
  search.placeholder = t('search');
  search.setAttribute('aria-label', t('search'));
}

async function changeLanguage(next) {
  setLanguage(next);
  localStorage.setItem('satchel.language', next);
  translatePage();
  await rpc.call('initialize', { locale: next, clientInfo: { name: 'satchel-web' } });
  for (const screen of Object.values(screens)) screen.translate?.();
  sync.translate();
  await retranslateErrors(rpc);
  screens[currentApp]?.refresh?.();
}

const searchInput = /** @type {HTMLInputElement} */ (document.getElementById('search-input'));

function setupSearch() {
  document.getElementById('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const query = searchInput.value.trim();
    if (!query) return;
    navigation.went('search', { query });
    search(query);
  });
}

/** Shows what `query` finds across the apps. */
async function search(query) {
  const section = document.getElementById('app-search');
  searchInput.value = query;
  if (currentApp !== 'search') screens[currentApp]?.hide?.();
  currentApp = 'search';
  const error = errorLine();
  section.replaceChildren(h('h2', {}, t('results', { q: query })), error);
  for (const tab of tabElements()) tab.setAttribute('aria-selected', 'false');
  for (const other of sections()) other.hidden = other !== section;
  try {
    const { hits } = await rpc.call('search', { query, limit: 50 });
    const list = h('ul', { class: 'hits' }, hits.map((hit) => h('li', {},
      h('button', { type: 'button', class: 'hit', dataset: { domain: hit.domain, id: hit.id },
        onclick: () => context.openItem(hit.domain, hit.id) },
        h('span', { class: 'hit-domain' }, t(appOfDomain[hit.domain])),
        h('span', { class: 'hit-title' }, hit.title),
        h('span', { class: 'hit-snippet' }, ...highlight(hit.snippet))))));
    section.append(hits.length ? list : h('p', { class: 'empty' }, t('noResults')));
  } catch (failure) {
    showError(error, failure);
  }
}

/** `a **b** c` as text nodes with the match in <mark>. */
function highlight(snippet) {
  return snippet.split('**').map((part, index) => (index % 2 ? h('mark', {}, part) : part));
}

function showStatus({ state }) {
  const banner = document.getElementById('banner');
  banner.hidden = state === 'ready';
  if (state !== 'ready') banner.textContent = t({ restarting: 'restarting', expired: 'expired' }[state] ?? 'disconnected');
  document.body.dataset.connection = state;
}

async function ready() {
  await rpc.call('initialize', { locale: language(), clientInfo: { name: 'satchel-web' } });
  if (!started) {
    started = true;
    for (const [app, module] of Object.entries(modules)) {
      screens[app] = module.mount(document.getElementById(`app-${app}`), context);
    }
    const fromHash = location.hash.slice(1);
    const app = modules[fromHash] ? fromHash : 'moments';
    navigation.start(app, {
      current: () => currentApp,
      show: (shown, state) => (shown === 'search' ? search(state.query ?? '') : select(shown, { entry: false })),
      openItem: (domain, id) => context.openItem(domain, id),
    });
    select(app, { entry: false });
    document.body.dataset.state = 'ready';
  } else {
    for (const screen of Object.values(screens)) screen.refresh?.();
  }
  sync.refresh();
}

rpc.onStatus((status) => {
  showStatus(status);
  if (status.state === 'ready') ready().catch((error) => console.warn('initialize failed', error));
});
rpc.onChange((event) => {
  for (const screen of Object.values(screens)) screen.changed?.(event);
  sync.refresh();
});
// More changes than the server sends one by one (a large import): every screen reads again what it shows.
rpc.onResync(() => {
  for (const screen of Object.values(screens)) screen.resync?.();
  sync.refresh();
});

setLanguage(localStorage.getItem('satchel.language') || 'en');
const languageSelect = /** @type {HTMLSelectElement} */ (document.getElementById('language'));
languageSelect.value = language();
languageSelect.addEventListener('change', () => {
  changeLanguage(languageSelect.value).catch((error) => console.warn('the language could not be changed', error));
});
const sync = syncState(document.getElementById('sync-state'), rpc,
  /** @type {HTMLButtonElement} */ (document.getElementById('device-button')));
translatePage();
setupTabs();
setupSearch();
data.mount(document.getElementById('data-button'), context);
