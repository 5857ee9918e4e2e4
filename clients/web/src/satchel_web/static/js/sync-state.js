// @ts-check
// The header's word on sync (`--sync`), from `sync.status`'s `state`: synced; syncing (how far a pull is, or
// the changes to send); offline (with the changes that wait); or, when sync stopped on something a person has
// to fix, that thing in words (`reason`) with what went wrong last as its title. Rows this device skipped
// because they break a rule are counted after it, their reasons in the title. In the person's language;
// hidden when this satchel does not sync. Beside it, this device's name (`deviceName`, whether it syncs or
// not: the copies kept when edits meet carry it), which a person changes there (`sync.setDeviceName`), and
// whether the account's private apps are end-to-end encrypted (`encryption`), turned on or changed from there.
// When the account is encrypted and this device has not unlocked it (`locked`), the word says so and the page
// asks for the passphrase once; "Later" leaves the word a button that asks again.
import { extend, language, t } from './i18n.js';
import { icon } from './icons.js';
import { errorLine, h, openDialog, showError } from './ui.js';
import { changePassphrase, encryptionSection, turnOn, unlock } from './encryption.js';

extend({
  en: {
    'sync.synced': 'Synced', 'sync.pending': '{n} to sync', 'sync.progress': 'Syncing {pulled} of {total}',
    'sync.offline': 'Offline', 'sync.offlinePending': 'Offline · {n} waiting', 'sync.notSetUp': 'Sync not set up',
    'sync.authenticationFailed': 'Sync: password refused', 'sync.databaseMissing': 'Sync: database not found',
    'sync.tlsRequired': 'Sync: secure connection required', 'sync.unsafeRole': 'Sync: this account may not sync',
    'sync.schemaNewer': 'Sync: update satchel', 'sync.wrongRole': 'Sync: signed in as another account',
    'sync.quotaExceeded': 'Sync: storage quota reached', 'sync.stopped': 'Sync stopped',
    'sync.skipped': ' · {n} skipped', 'sync.skippedTitle': '{n} skipped: they break a rule',
    'sync.syncing': 'Syncing…',
    'device.label': 'This device: {name}', 'device.change': 'Change this device’s name',
    'device.title': 'This device', 'device.name': 'Device name',
    'device.hint': 'Copies kept when edits meet are named after the device they were written on, here and on your other devices.',
    'device.empty': 'Give this device a name: it cannot be blank.',
    'device.tooLong': 'A device name is at most {limit} characters.',
  },
  ru: {
    'sync.synced': 'Синхронизировано', 'sync.pending': 'К отправке: {n}',
    'sync.progress': 'Синхронизация: {pulled} из {total}', 'sync.offline': 'Нет связи',
    'sync.offlinePending': 'Нет связи · ждут: {n}', 'sync.notSetUp': 'Синхронизация не настроена',
    'sync.authenticationFailed': 'Синхронизация: пароль не принят',
    'sync.databaseMissing': 'Синхронизация: база данных не найдена',
    'sync.tlsRequired': 'Синхронизация: нужно защищённое соединение',
    'sync.unsafeRole': 'Синхронизация под этой учётной записью запрещена',
    'sync.schemaNewer': 'Синхронизация: обновите satchel', 'sync.wrongRole': 'Синхронизация: вход под другой учётной записью',
    'sync.quotaExceeded': 'Синхронизация: хранилище заполнено', 'sync.stopped': 'Синхронизация остановлена',
    'sync.skipped': ' · пропущено: {n}', 'sync.skippedTitle': 'Пропущено: {n} — нарушают правила',
    'sync.syncing': 'Синхронизация…',
    'device.label': 'Это устройство: {name}', 'device.change': 'Изменить название устройства',
    'device.title': 'Это устройство', 'device.name': 'Название устройства',
    'device.hint': 'Копии, сохранённые при встрече правок, называются по устройству, на котором их написали, — здесь и на других ваших устройствах.',
    'device.empty': 'Дайте устройству название: оно не может быть пустым.',
    'device.tooLong': 'Название устройства — не больше {limit} символов.',
  },
  ja: {
    'sync.synced': '同期済み', 'sync.pending': '未同期 {n} 件', 'sync.progress': '同期中 {pulled} / {total} 件',
    'sync.offline': 'オフライン', 'sync.offlinePending': 'オフライン · 待機 {n} 件', 'sync.notSetUp': '同期が未設定',
    'sync.authenticationFailed': '同期: パスワードが拒否されました', 'sync.databaseMissing': '同期: データベースが見つかりません',
    'sync.tlsRequired': '同期: 安全な接続が必要です', 'sync.unsafeRole': '同期: このアカウントでは同期できません',
    'sync.schemaNewer': '同期: satchel を更新してください', 'sync.wrongRole': '同期: 別のアカウントでログインしています',
    'sync.quotaExceeded': '同期: 保存容量の上限に達しました', 'sync.stopped': '同期が停止しました',
    'sync.skipped': ' · スキップ {n} 件', 'sync.skippedTitle': 'ルール違反でスキップ {n} 件',
    'sync.syncing': '同期中…',
    'device.label': 'このデバイス: {name}', 'device.change': 'このデバイスの名前を変更',
    'device.title': 'このデバイス', 'device.name': 'デバイス名',
    'device.hint': '編集がぶつかったときに残すコピーには、書かれたデバイスの名前が付きます（ここでも、ほかのデバイスでも）。',
    'device.empty': 'デバイスに名前を付けてください。空にはできません。',
    'device.tooLong': 'デバイス名は {limit} 文字までです。',
  },
});

/** How often the state is asked for while the page is shown (changes ask at once). */
const EVERY = 2000;
/** Skipped rows whose reasons the title lists (the newest). */
const LISTED = 5;

/** The words for each `reason` sync stopped on (the old schemas need the same thing: `sync-setup`). */
const REASONS = {
  authenticationFailed: 'sync.authenticationFailed', databaseMissing: 'sync.databaseMissing',
  tlsRequired: 'sync.tlsRequired', unsafeRole: 'sync.unsafeRole', schemaMissing: 'sync.notSetUp',
  schemaOlder: 'sync.notSetUp', schemaNewer: 'sync.schemaNewer', wrongRole: 'sync.wrongRole',
  quotaExceeded: 'sync.quotaExceeded', wrongPassphrase: 'sync.wrongPassphrase',
};

/** @param {number} value */
const number = (value) => new Intl.NumberFormat(language()).format(value);

/** The app a synced row's domain belongs to, by its name on the tabs (a skipped row is listed by it, not by wire names). */
const APP_OF = {
  notes: 'notes', photos: 'notes', images: 'notes', diary: 'moments', reminders: 'reminders', messages: 'messages',
  board: 'board', votes: 'board',
};

/**
 * A refusal of `sync.setDeviceName` in the person's words (the server's are a title's).
 * @param {any} failure
 */
function deviceError(failure) {
  const reason = failure?.data?.reason;
  if (reason === 'emptyName' || reason === 'emptyTitle') return new Error(t('device.empty'));
  if (reason === 'nameTooLong' || reason === 'titleTooLong') return new Error(t('device.tooLong', { limit: failure.data.limit ?? 64 }));
  return failure;
}

/**
 * The dialog that names this device: its name now in a field, Save (`sync.setDeviceName`) or Cancel; below,
 * when it syncs, whether encryption is on and the button that turns it on, changes or unlocks it. Resolves
 * with the name saved (or null) and the encryption action chosen (or null).
 * @param {import('./rpc.js').Rpc} rpc
 * @param {any} status
 * @param {string | null} [notice] said at the top (what the last action did)
 * @returns {Promise<{saved: string | null, action: 'turnOn' | 'change' | 'unlock' | null}>}
 */
async function renameDevice(rpc, status, notice = null) {
  const name = status.deviceName ?? '';
  let saved = null;
  /** @type {'turnOn' | 'change' | 'unlock' | null} */
  let action = null;
  const error = errorLine();
  error.id = 'device-error';
  const field = h('input', { type: 'text', name: 'deviceName', value: name, autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'device-hint device-error' });
  const form = h('form', { method: 'dialog', class: 'device-form', novalidate: true },
    h('h2', {}, t('device.title')),
    notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
    h('p', { class: 'muted', id: 'device-hint' }, t('device.hint')),
    h('label', { class: 'field' }, h('span', {}, t('device.name')), field),
    error,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'device-cancel', onclick: () => form.closest('dialog').close() }, t('cancel')),
      h('button', { type: 'submit', class: 'primary device-save' }, t('save'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      saved = (await rpc.call('sync.setDeviceName', { name: field.value.trim() })).deviceName;
      form.closest('dialog').close('saved');
    } catch (failure) {
      field.setAttribute('aria-invalid', 'true');
      showError(error, deviceError(failure));
      field.focus();
    }
  });
  field.addEventListener('input', () => field.removeAttribute('aria-invalid'));
  const encryption = encryptionSection(status, (chosen) => {
    action = chosen;
    form.closest('dialog').close(chosen);
  });
  const closed = openDialog(encryption ? h('div', {}, form, encryption) : form,
    { label: t('device.title'), className: 'device-sheet' });
  field.select();
  await closed;
  return { saved, action };
}

/**
 * Keeps `element` saying how sync stands, from `sync.status`, and `device` (a button, when given) showing this
 * device's name; the button opens the dialog that changes it.
 * @param {HTMLElement} element
 * @param {import('./rpc.js').Rpc} rpc
 * @param {HTMLButtonElement | null} [device]
 */
export function syncState(element, rpc, device = null) {
  let status = null;
  let asking = false;
  let prompted = false; // the passphrase was asked for once at lock: after Later the word asks again, the page not
  let prompting = false;
  const deviceName = h('span', { class: 'device-name' });
  // The word while this device is locked (or its passphrase was refused): a button that asks for the passphrase.
  const unlockButton = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'sync-unlock',
    'aria-haspopup': 'dialog', onclick: () => { askPassphrase().then(() => unlockButton.isConnected && unlockButton.focus()); } }));

  /** Asks for the passphrase (not twice at once); refreshes the word once unlocked. */
  async function askPassphrase() {
    if (prompting) return;
    prompting = true;
    prompted = true;
    try {
      if (await unlock(rpc)) await refresh(true);
    } finally {
      prompting = false;
    }
  }

  /** The device dialog, and the encryption dialog it leads to (after which it opens again, saying what changed). */
  async function openDevice(notice = null) {
    const { saved, action } = await renameDevice(rpc, status, notice);
    if (saved !== null) {
      status = { ...status, deviceName: saved };
      render();
      refresh();
    }
    if (action === 'unlock') {
      await askPassphrase();
    } else if (action === 'turnOn' || action === 'change') {
      const done = await (action === 'turnOn' ? turnOn(rpc) : changePassphrase(rpc));
      if (done) await refresh(true);
      await openDevice(done && action === 'change' ? t('change.done') : null);
    }
  }

  if (device) {
    device.replaceChildren(icon('device'), deviceName);
    device.addEventListener('click', async () => {
      if (!status) return;
      await openDevice();
      device.focus();
    });
  }
  function renderDevice() {
    if (!device) return;
    const name = status?.deviceName;
    device.hidden = !name;
    if (!name) return;
    deviceName.textContent = name;
    device.setAttribute('aria-label', t('device.label', { name }));
    device.title = t('device.change');
  }
  function render() {
    renderDevice();
    element.hidden = !status?.enabled || status.state === 'off';
    if (element.hidden) return;
    const { state, reason, progress, pending, lastError } = status;
    let text;
    if (state === 'error') {
      text = t(REASONS[reason] ?? 'sync.stopped');
    } else if (state === 'locked') {
      text = t('sync.locked');
    } else if (state === 'offline') {
      text = pending ? t('sync.offlinePending', { n: number(pending) }) : t('sync.offline');
    } else if (state === 'syncing') {
      if (progress) text = t('sync.progress', { pulled: number(progress.pulled), total: number(progress.total) });
      else text = pending ? t('sync.pending', { n: number(pending) }) : t('sync.syncing');
    } else {
      text = t('sync.synced');
    }
    const title = lastError ? [lastError] : [];
    const skipped = status.skipped ?? { count: 0, recent: [] };
    if (skipped.count > 0) {
      text += t('sync.skipped', { n: number(skipped.count) });
      title.push(t('sync.skippedTitle', { n: number(skipped.count) }),
        ...skipped.recent.slice(0, LISTED).map((row) => (APP_OF[row.domain] ? `${t(APP_OF[row.domain])}: ${row.reason}` : row.reason)));
    }
    element.dataset.sync = state;
    element.dataset.skipped = String(skipped.count);
    element.dataset.encryption = status.encryption ?? 'unknown';
    // Written only when it changes: the word is a live region, and each refresh (every 2 s, every change) would
    // have it said again.
    if (state === 'locked' || reason === 'wrongPassphrase') {
      // the same button every time: one that has focus keeps it
      if (unlockButton.parentNode !== element) element.replaceChildren(unlockButton);
      if (unlockButton.textContent !== text) unlockButton.textContent = text;
      const named = t('sync.unlockLabel', { word: text });
      if (unlockButton.getAttribute('aria-label') !== named) unlockButton.setAttribute('aria-label', named);
    } else if (element.firstElementChild || element.textContent !== text) {
      element.textContent = text;
    }
    if (element.title !== title.join('\n')) element.title = title.join('\n');
  }
  /** Asks how sync stands; `force`: even while a question is out (the answer to it may predate an unlock). */
  async function refresh(force = false) {
    if (asking && !force) return;
    asking = true;
    try {
      status = await rpc.call('sync.status');
      render();
      // Locked: the page asks for the passphrase once, when no other dialog is open (else at a later refresh).
      if (status.state === 'locked' && !prompted && !prompting && !document.querySelector('dialog[open]')) {
        askPassphrase();
      }
    } catch {
      // the connection is down: the banner says so; the next refresh tries again
    } finally {
      asking = false;
    }
  }
  setInterval(() => { if (!document.hidden) refresh(); }, EVERY);
  return { refresh, translate: render };
}
