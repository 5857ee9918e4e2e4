// @ts-check
// The header's word on sync (`--sync`): synced, changes waiting, offline, or not set up — in the person's
// language, with what went wrong last as its title. Hidden when this satchel does not sync.
import { extend, t } from './i18n.js';

extend({
  en: {
    'sync.synced': 'Synced', 'sync.pending': '{n} to sync', 'sync.offline': 'Offline',
    'sync.offlinePending': 'Offline · {n} waiting', 'sync.notSetUp': 'Sync not set up',
  },
  ru: {
    'sync.synced': 'Синхронизировано', 'sync.pending': 'К отправке: {n}', 'sync.offline': 'Нет связи',
    'sync.offlinePending': 'Нет связи · ждут: {n}', 'sync.notSetUp': 'Синхронизация не настроена',
  },
  ja: {
    'sync.synced': '同期済み', 'sync.pending': '未同期 {n} 件', 'sync.offline': 'オフライン',
    'sync.offlinePending': 'オフライン · 待機 {n} 件', 'sync.notSetUp': '同期が未設定',
  },
});

/** How often the state is asked for while the page is shown (changes ask at once). */
const EVERY = 2000;

/**
 * Keeps `element` saying how sync stands, from `sync.status`.
 * @param {HTMLElement} element
 * @param {import('./rpc.js').Rpc} rpc
 */
export function syncState(element, rpc) {
  let status = null;
  let asking = false;
  function render() {
    element.hidden = !status?.enabled;
    if (!status?.enabled) return;
    const { connected, pending, schema, lastError } = status;
    let state;
    let text;
    if (schema !== 'ok' && schema !== 'unknown' && connected) {
      [state, text] = ['attention', t('sync.notSetUp')];
    } else if (!connected) {
      [state, text] = ['offline', pending ? t('sync.offlinePending', { n: pending }) : t('sync.offline')];
    } else if (pending) {
      [state, text] = ['pending', t('sync.pending', { n: pending })];
    } else {
      [state, text] = ['synced', t('sync.synced')];
    }
    element.dataset.sync = state;
    element.textContent = text;
    element.title = lastError ?? '';
  }
  async function refresh() {
    if (asking) return;
    asking = true;
    try {
      status = await rpc.call('sync.status');
      render();
    } catch {
      // the connection is down: the banner says so; the next refresh tries again
    } finally {
      asking = false;
    }
  }
  setInterval(() => { if (!document.hidden) refresh(); }, EVERY);
  return { refresh, translate: render };
}
