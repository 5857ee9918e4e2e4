// @ts-check
// End-to-end encryption of a person's private apps (notes, photo notes, diary, reminders) when they sync: the
// dialogs that unlock them on this device (`sync.unlock` with the account's passphrase), turn encryption on
// (`sync.unlock` on an account without a key: a passphrase typed twice, with what losing it costs) and change
// the passphrase (`sync.changePassphrase`: the current one, then the new one twice). Each says what went wrong
// in the person's words, never the server's reason names.
import { extend, t } from './i18n.js';
import { errorLine, h, openDialog, showError } from './ui.js';

/** The shortest passphrase the server takes as a new one (`sync.changePassphrase`); a first one too. */
export const SHORTEST = 8;

extend({
  en: {
    'sync.locked': 'Locked', 'sync.wrongPassphrase': 'Sync: passphrase not accepted',
    'sync.unlockLabel': '{word}: type your passphrase to sync your notes here',
    'encryption.heading': 'End-to-end encryption',
    'encryption.on': 'End-to-end encrypted', 'encryption.off': 'Not encrypted',
    'encryption.locked': 'Locked on this device: your passphrase unlocks it',
    'encryption.unknown': 'Known once the sync server is reached',
    'encryption.onHint': 'Your notes, photos, diary and reminders are sealed on this device before they sync: the sync server cannot read them.',
    'encryption.offHint': 'The sync server can read your notes, photos, diary and reminders. Encrypt them with a passphrase that only you know.',
    'encryption.turnOn': 'Turn on encryption…', 'encryption.change': 'Change passphrase…', 'encryption.unlock': 'Unlock…',
    'unlock.title': 'Unlock your synced notes',
    'unlock.hint': 'Your notes, photos, diary and reminders are end-to-end encrypted. Type the passphrase you set on your other device to sync them here.',
    'unlock.later': 'Until then, everything you do here is kept on this device and syncs once it is unlocked.',
    'unlock.passphrase': 'Passphrase', 'unlock.submit': 'Unlock', 'unlock.laterButton': 'Later',
    'unlock.working': 'Unlocking…',
    'turnOn.title': 'Turn on end-to-end encryption',
    'turnOn.hint': 'Your notes, photos, diary and reminders will be sealed on this device before they sync: the sync server keeps only what it cannot read. Each of your other devices asks for this passphrase once.',
    'turnOn.warning': 'Keep this passphrase safe. Losing it loses the synced copy, not this device’s data.',
    'turnOn.passphrase': 'New passphrase', 'turnOn.again': 'Type it again', 'turnOn.submit': 'Turn on encryption',
    'change.title': 'Change the passphrase', 'change.current': 'Current passphrase', 'change.new': 'New passphrase',
    'change.again': 'Type the new one again', 'change.submit': 'Change passphrase',
    'change.hint': 'Your other devices stay unlocked; a new device will need the new passphrase.',
    'change.done': 'The passphrase was changed.',
    'passphrase.empty': 'Type your passphrase.',
    'passphrase.wrong': 'That passphrase does not unlock your synced notes. Check it and try again.',
    'passphrase.wrongCurrent': 'That is not the current passphrase.',
    'passphrase.short': 'A passphrase has at least {n} characters.',
    'passphrase.differ': 'The two passphrases differ: type the same one twice.',
  },
  ru: {
    'sync.locked': 'Заблокировано', 'sync.wrongPassphrase': 'Синхронизация: кодовая фраза не подошла',
    'sync.unlockLabel': '{word}: введите кодовую фразу, чтобы синхронизировать заметки здесь',
    'encryption.heading': 'Сквозное шифрование',
    'encryption.on': 'Сквозное шифрование включено', 'encryption.off': 'Без шифрования',
    'encryption.locked': 'На этом устройстве заблокировано: его открывает кодовая фраза',
    'encryption.unknown': 'Станет известно, когда сервер синхронизации будет доступен',
    'encryption.onHint': 'Заметки, фото, дневник и напоминания шифруются на этом устройстве до отправки: сервер синхронизации не может их прочитать.',
    'encryption.offHint': 'Сервер синхронизации может читать ваши заметки, фото, дневник и напоминания. Зашифруйте их кодовой фразой, которую знаете только вы.',
    'encryption.turnOn': 'Включить шифрование…', 'encryption.change': 'Сменить кодовую фразу…', 'encryption.unlock': 'Разблокировать…',
    'unlock.title': 'Разблокируйте синхронизированные заметки',
    'unlock.hint': 'Ваши заметки, фото, дневник и напоминания зашифрованы. Введите кодовую фразу, заданную на другом устройстве, чтобы синхронизировать их здесь.',
    'unlock.later': 'До тех пор всё, что вы делаете здесь, хранится на этом устройстве и синхронизируется после разблокировки.',
    'unlock.passphrase': 'Кодовая фраза', 'unlock.submit': 'Разблокировать', 'unlock.laterButton': 'Позже',
    'unlock.working': 'Разблокировка…',
    'turnOn.title': 'Включить сквозное шифрование',
    'turnOn.hint': 'Заметки, фото, дневник и напоминания будут шифроваться на этом устройстве до отправки: сервер синхронизации хранит только то, что не может прочитать. Каждое другое ваше устройство спросит эту фразу один раз.',
    'turnOn.warning': 'Храните кодовую фразу надёжно. Потеряв её, вы потеряете синхронизированную копию, но не данные этого устройства.',
    'turnOn.passphrase': 'Новая кодовая фраза', 'turnOn.again': 'Введите её ещё раз', 'turnOn.submit': 'Включить шифрование',
    'change.title': 'Смена кодовой фразы', 'change.current': 'Текущая кодовая фраза', 'change.new': 'Новая кодовая фраза',
    'change.again': 'Введите новую ещё раз', 'change.submit': 'Сменить кодовую фразу',
    'change.hint': 'Другие ваши устройства останутся разблокированными; новому устройству понадобится новая фраза.',
    'change.done': 'Кодовая фраза изменена.',
    'passphrase.empty': 'Введите кодовую фразу.',
    'passphrase.wrong': 'Эта кодовая фраза не открывает синхронизированные заметки. Проверьте её и попробуйте снова.',
    'passphrase.wrongCurrent': 'Это не текущая кодовая фраза.',
    'passphrase.short': 'Кодовая фраза — не короче {n} символов.',
    'passphrase.differ': 'Фразы не совпадают: введите одну и ту же дважды.',
  },
  ja: {
    'sync.locked': 'ロック中', 'sync.wrongPassphrase': '同期: パスフレーズが違います',
    'sync.unlockLabel': '{word}: パスフレーズを入力すると、ここでメモを同期します',
    'encryption.heading': 'エンドツーエンド暗号化',
    'encryption.on': 'エンドツーエンドで暗号化済み', 'encryption.off': '暗号化なし',
    'encryption.locked': 'このデバイスではロック中: パスフレーズで解除します',
    'encryption.unknown': '同期サーバーに接続すると分かります',
    'encryption.onHint': 'メモ、写真、日記、リマインダーは同期の前にこのデバイスで暗号化されます。同期サーバーは読めません。',
    'encryption.offHint': '同期サーバーはメモ、写真、日記、リマインダーを読めます。自分だけが知るパスフレーズで暗号化できます。',
    'encryption.turnOn': '暗号化をオンにする…', 'encryption.change': 'パスフレーズを変更…', 'encryption.unlock': 'ロックを解除…',
    'unlock.title': '同期したメモのロックを解除',
    'unlock.hint': 'メモ、写真、日記、リマインダーはエンドツーエンドで暗号化されています。ほかのデバイスで設定したパスフレーズを入力すると、ここで同期します。',
    'unlock.later': 'それまでは、ここでの作業はこのデバイスに保存され、解除後に同期されます。',
    'unlock.passphrase': 'パスフレーズ', 'unlock.submit': '解除', 'unlock.laterButton': 'あとで',
    'unlock.working': '解除しています…',
    'turnOn.title': 'エンドツーエンド暗号化をオンにする',
    'turnOn.hint': 'メモ、写真、日記、リマインダーは同期の前にこのデバイスで暗号化され、同期サーバーには読めない形だけが残ります。ほかのデバイスでは一度だけこのパスフレーズを尋ねます。',
    'turnOn.warning': 'パスフレーズは大切に保管してください。なくすと同期したコピーは失われますが、このデバイスのデータは失われません。',
    'turnOn.passphrase': '新しいパスフレーズ', 'turnOn.again': 'もう一度入力', 'turnOn.submit': '暗号化をオンにする',
    'change.title': 'パスフレーズの変更', 'change.current': '現在のパスフレーズ', 'change.new': '新しいパスフレーズ',
    'change.again': '新しいパスフレーズをもう一度', 'change.submit': 'パスフレーズを変更',
    'change.hint': 'ほかのデバイスはロック解除されたままです。新しいデバイスには新しいパスフレーズが必要です。',
    'change.done': 'パスフレーズを変更しました。',
    'passphrase.empty': 'パスフレーズを入力してください。',
    'passphrase.wrong': 'このパスフレーズでは同期したメモを解除できません。確認してもう一度お試しください。',
    'passphrase.wrongCurrent': '現在のパスフレーズではありません。',
    'passphrase.short': 'パスフレーズは {n} 文字以上です。',
    'passphrase.differ': '2 つのパスフレーズが一致しません。同じものを 2 回入力してください。',
  },
});

/**
 * A password field with its label, and the error line it is described by.
 * @param {string} name
 * @param {string} label
 * @param {string} autocomplete
 * @param {string} [describedBy]
 */
function passphraseField(name, label, autocomplete, describedBy = '') {
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'password', name, autocomplete, spellcheck: 'false',
    'aria-describedby': `${describedBy} passphrase-error`.trim() }));
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
  return { input, label: h('label', { class: 'field' }, h('span', {}, label), input) };
}

/**
 * A dialog of password fields whose submit runs `work`; `check` refuses before asking the server (returns the
 * words and the field at fault), `explain` turns the server's refusal into the person's words. Resolves true
 * once `work` succeeds, false on Later/Cancel.
 * @param {{name: string, title: string, paragraphs: Node[], fields: ReturnType<typeof passphraseField>[],
 *   submit: string, dismiss: string, check: () => [string, HTMLInputElement] | null,
 *   work: () => Promise<unknown>, explain: (failure: any) => [Error, HTMLInputElement]}} spec
 * @returns {Promise<boolean>}
 */
async function passphraseDialog(spec) {
  let done = false;
  let busy = false;
  const error = errorLine();
  error.id = 'passphrase-error';
  const submit = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: `primary ${spec.name}-submit` }, spec.submit));
  const form = h('form', { method: 'dialog', class: `passphrase-form ${spec.name}-form`, novalidate: true },
    h('h2', {}, spec.title),
    ...spec.paragraphs,
    ...spec.fields.map((field) => field.label),
    error,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: `${spec.name}-dismiss`, onclick: () => { if (!busy) form.closest('dialog').close(); } },
        spec.dismiss),
      submit));
  /** @param {Error} failure @param {HTMLInputElement} field */
  const refuse = (failure, field) => {
    field.setAttribute('aria-invalid', 'true');
    showError(error, failure);
    field.focus();
    field.select();
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    showError(error, null);
    const refused = spec.check();
    if (refused) {
      refuse(new Error(refused[0]), refused[1]);
      return;
    }
    busy = true;
    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    const words = submit.textContent;
    submit.textContent = t('unlock.working');
    try {
      await spec.work();
      done = true;
      form.closest('dialog').close('done');
    } catch (failure) {
      const [said, field] = spec.explain(failure);
      refuse(said, field);
    } finally {
      busy = false;
      submit.disabled = false;
      submit.textContent = words;
      form.removeAttribute('aria-busy');
    }
  });
  const closed = openDialog(form, { label: spec.title, className: 'passphrase-sheet' });
  const dialog = form.closest('dialog');
  dialog.addEventListener('cancel', (event) => { if (busy) event.preventDefault(); }); // Escape waits for the answer
  spec.fields[0].input.focus();
  await closed;
  return done;
}

/** @param {any} failure */
const wrongPassphrase = (failure) => failure?.data?.reason === 'wrongPassphrase';

/**
 * Asks for the account's passphrase and unlocks this device (`sync.unlock`). Resolves true once unlocked.
 * @param {import('./rpc.js').Rpc} rpc
 */
export function unlock(rpc) {
  const field = passphraseField('passphrase', t('unlock.passphrase'), 'current-password', 'unlock-hint');
  return passphraseDialog({
    name: 'unlock', title: t('unlock.title'), submit: t('unlock.submit'), dismiss: t('unlock.laterButton'),
    paragraphs: [h('p', { id: 'unlock-hint' }, t('unlock.hint')), h('p', { class: 'muted' }, t('unlock.later'))],
    fields: [field],
    check: () => (field.input.value ? null : [t('passphrase.empty'), field.input]),
    work: () => rpc.call('sync.unlock', { passphrase: field.input.value }),
    explain: (failure) => [wrongPassphrase(failure) ? new Error(t('passphrase.wrong')) : failure, field.input],
  });
}

/**
 * The new passphrase's two fields refused before the server is asked: empty, too short, or not the same twice.
 * @param {HTMLInputElement} first
 * @param {HTMLInputElement} again
 * @returns {[string, HTMLInputElement] | null}
 */
function checkNew(first, again) {
  if (!first.value) return [t('passphrase.empty'), first];
  if ([...first.value].length < SHORTEST) return [t('passphrase.short', { n: SHORTEST }), first];
  if (first.value !== again.value) return [t('passphrase.differ'), again];
  return null;
}

/**
 * Turns encryption on for the account with a passphrase typed twice (`sync.unlock` on an account without a
 * key), saying first what losing it costs. Resolves true once on.
 * @param {import('./rpc.js').Rpc} rpc
 */
export function turnOn(rpc) {
  const first = passphraseField('newPassphrase', t('turnOn.passphrase'), 'new-password', 'turn-on-warning');
  const again = passphraseField('newPassphraseAgain', t('turnOn.again'), 'new-password');
  return passphraseDialog({
    name: 'turn-on', title: t('turnOn.title'), submit: t('turnOn.submit'), dismiss: t('cancel'),
    paragraphs: [h('p', {}, t('turnOn.hint')), h('p', { class: 'warning', id: 'turn-on-warning' }, t('turnOn.warning'))],
    fields: [first, again],
    check: () => checkNew(first.input, again.input),
    work: () => rpc.call('sync.unlock', { passphrase: first.input.value }),
    explain: (failure) => [wrongPassphrase(failure) ? new Error(t('passphrase.wrong')) : failure, first.input],
  });
}

/**
 * Changes the account's passphrase (`sync.changePassphrase`): the current one, the new one twice. Resolves
 * true once changed.
 * @param {import('./rpc.js').Rpc} rpc
 */
export function changePassphrase(rpc) {
  const current = passphraseField('passphrase', t('change.current'), 'current-password');
  const first = passphraseField('newPassphrase', t('change.new'), 'new-password', 'change-warning');
  const again = passphraseField('newPassphraseAgain', t('change.again'), 'new-password');
  return passphraseDialog({
    name: 'change', title: t('change.title'), submit: t('change.submit'), dismiss: t('cancel'),
    paragraphs: [h('p', {}, t('change.hint')), h('p', { class: 'warning', id: 'change-warning' }, t('turnOn.warning'))],
    fields: [current, first, again],
    check: () => (current.input.value ? checkNew(first.input, again.input) : [t('passphrase.empty'), current.input]),
    work: () => rpc.call('sync.changePassphrase', { passphrase: current.input.value, newPassphrase: first.input.value }),
    explain: (failure) => (wrongPassphrase(failure)
      ? [new Error(t('passphrase.wrongCurrent')), current.input]
      : [failure, failure?.data?.field === 'newPassphrase' ? first.input : current.input]),
  });
}

/**
 * What the device dialog says of encryption (`sync.status`'s `encryption`), and the button that acts on it:
 * turn it on, change the passphrase, or unlock. `act` gets which.
 * @param {any} status
 * @param {(action: 'turnOn' | 'change' | 'unlock') => void} act
 * @returns {HTMLElement | null}
 */
export function encryptionSection(status, act) {
  if (!status?.enabled) return null;
  const state = status.encryption ?? 'unknown';
  const action = { off: 'turnOn', on: 'change', locked: 'unlock' }[state];
  const hint = { off: 'encryption.offHint', on: 'encryption.onHint' }[state];
  return h('section', { class: 'encryption', 'aria-labelledby': 'encryption-heading', dataset: { encryption: state } },
    h('h3', { id: 'encryption-heading' }, t('encryption.heading')),
    h('p', { class: 'encryption-state' }, t(`encryption.${state in { on: 1, off: 1, locked: 1 } ? state : 'unknown'}`)),
    hint ? h('p', { class: 'muted' }, t(hint)) : null,
    action ? h('button', { type: 'button', class: `encryption-${action}`, 'aria-haspopup': 'dialog',
      onclick: () => act(/** @type {any} */ (action)) }, t(`encryption.${action}`)) : null);
}
