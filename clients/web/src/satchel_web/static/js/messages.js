// @ts-check
// Messages: a chat read from the bottom up under a heading for each day, earlier batches loaded from the feed at
// the top (larger the further back the person goes), an input field at the bottom, and a detail sheet for each
// message with its date, avatar and text.
import { day, sameDay, stamp, time } from './dates.js';
import { extend, language, t } from './i18n.js';
import { coalesce, errorLine, h, labels, openDialog, showError } from './ui.js';

extend({
  en: {
    'messages.conversation': 'Conversation', 'messages.loadEarlier': 'Load earlier messages',
    'messages.loading': 'Loading messages…', 'messages.end': 'No more messages', 'messages.field': 'Message',
    'messages.send': 'Send', 'messages.delete': 'Delete message', 'messages.from': 'Message from {name}',
    'messages.empty': 'No messages yet', 'messages.gone': 'This message was deleted somewhere else.',
  },
  ru: {
    'messages.conversation': 'Переписка', 'messages.loadEarlier': 'Загрузить более ранние сообщения',
    'messages.loading': 'Загрузка сообщений…', 'messages.end': 'Больше сообщений нет', 'messages.field': 'Сообщение',
    'messages.send': 'Отправить', 'messages.delete': 'Удалить сообщение', 'messages.from': 'Сообщение от {name}',
    'messages.empty': 'Сообщений пока нет', 'messages.gone': 'Это сообщение удалили в другом месте.',
  },
  ja: {
    'messages.conversation': '会話', 'messages.loadEarlier': '以前のメッセージを読み込む',
    'messages.loading': 'メッセージを読み込み中…', 'messages.end': 'これ以上メッセージはありません',
    'messages.field': 'メッセージ', 'messages.send': '送信', 'messages.delete': 'メッセージを削除',
    'messages.from': '{name} からのメッセージ', 'messages.empty': 'メッセージはまだありません',
    'messages.gone': 'このメッセージは別の場所で削除されました。',
  },
});

const PAGE = 50; // stored messages per page of `messages.list`
const BATCH = 20; // messages asked of the feed per `messages.loadMore`
/**
 * How many earlier messages to bring when the top is reached with `shown` on screen: as many again (from `least`,
 * at most 500, a call's most), so going far back takes a few trips, not one per screenful: 1,000 take six.
 */
const further = (shown, least) => Math.min(500, Math.max(least, shown));

/** Up to two initials of `name` ("Anna Petrova" → "AP"). */
function initials(name) {
  const words = String(name ?? '').trim().split(/\s+/).filter(Boolean);
  return words.slice(0, 2).map((word) => Array.from(word)[0].toLocaleUpperCase()).join('') || '?';
}

/** A hue of its own for each name, so placeholders tell people apart. */
function hueOf(name) {
  let hash = 0x811c9dc5;
  for (const char of String(name ?? '')) hash = Math.imul(hash ^ char.codePointAt(0), 0x01000193) >>> 0;
  return hash % 360;
}

/** A round avatar: the author's picture, or their initials in a circle when there is none or it fails. */
function avatar(author, size = 'small') {
  const holder = h('span', { class: `avatar avatar-${size}`, 'aria-hidden': 'true' });
  const placeholder = () => {
    holder.dataset.avatar = 'placeholder';
    holder.style.setProperty('--avatar-hue', hueOf(author.name));
    holder.replaceChildren(h('span', { class: 'avatar-initials' }, initials(author.name)));
  };
  if (author.avatarUrl) {
    holder.dataset.avatar = 'image';
    holder.append(h('img', { src: author.avatarUrl, alt: '', referrerpolicy: 'no-referrer', decoding: 'async', onerror: placeholder }));
  } else {
    placeholder();
  }
  return holder;
}


/**
 * Mounts the screen in `section`.
 * @param {HTMLElement} section
 * @param {import('./types.js').Context} context
 * @returns {import('./types.js').Screen}
 */
export function mount(section, { rpc }) {
  let messages = []; // oldest first: the order of the screen, top to bottom
  let nextCursor = null; // more stored messages above the ones shown
  let started = false;
  let loading = false;
  let ended = false; // the feed said it has nothing older; scrolling to the top no longer asks it
  let generation = 0;
  let detail = null; // {id, gone} of the open detail sheet

  const { label, translate: translateLabels } = labels(t);

  const heading = label(h('h2'), 'messages');
  const loadButton = label(h('button', { type: 'button', class: 'button chat-load', onclick: () => loadEarlier() }), 'messages.loadEarlier');
  const spinner = h('p', { class: 'chat-loading', role: 'status', hidden: true },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }), label(h('span'), 'messages.loading'));
  const endAlert = h('p', { class: 'chat-end', role: 'alert', hidden: true });
  const loadError = errorLine();
  const empty = label(h('p', { class: 'chat-empty muted', hidden: true }), 'messages.empty');
  const list = h('ol', { class: 'list chat-list' });
  const log = h('div', { class: 'chat-log', role: 'log', 'aria-busy': 'false' },
    h('div', { class: 'chat-top' }, loadButton, spinner, endAlert, loadError), empty, list);
  label(log, 'messages.conversation', 'aria-label');
  const input = h('input', { type: 'text', class: 'chat-input', autocomplete: 'off', enterkeyhint: 'send', dir: 'auto' });
  label(input, 'messages.field', 'aria-label');
  label(input, 'messages.field', 'placeholder');
  const sendButton = label(h('button', { type: 'submit', class: 'primary chat-send' }), 'messages.send');
  const sendError = errorLine();
  const composer = h('form', { class: 'chat-composer' }, h('div', { class: 'chat-compose-row' }, input, sendButton), sendError);
  const chat = h('div', { class: 'chat card' }, log, composer);
  section.append(h('div', { class: 'toolbar chat-toolbar' }, heading), chat);

  const rows = new Map(); // message id → {key, element}

  function row(message) {
    const key = JSON.stringify([message.text, message.author, message.sentAt, language()]);
    const known = rows.get(message.id);
    if (known?.key === key) return known.element;
    const button = h('button', { type: 'button', class: 'chat-message', dataset: { id: message.id }, onclick: () => showDetail(message) },
      avatar(message.author),
      h('span', { class: 'chat-bubble' },
        h('span', { class: 'chat-author' }, message.author.name),
        h('span', { class: 'chat-text', dir: 'auto' }, message.text),
        h('time', { class: 'chat-time', datetime: message.sentAt }, time(message.sentAt))));
    const element = h('li', { class: `chat-row ${message.origin === 'local' ? 'local' : 'remote'}`, dataset: { id: message.id } }, button);
    if (known) element.classList.add('settled');
    rows.set(message.id, { key, element });
    return element;
  }

  /** The rows of `messages`, each day's first under that day's heading ("Today", "Yesterday", a date). */
  function withDays() {
    return messages.flatMap((message, index) => (index > 0 && sameDay(messages[index - 1].sentAt, message.sentAt)
      ? [row(message)]
      : [h('li', { class: 'chat-day' }, h('time', { datetime: message.sentAt.slice(0, 10) }, day(message.sentAt))), row(message)]));
  }

  function atBottom() {
    return log.scrollHeight - log.scrollTop - log.clientHeight < 8;
  }
  // Whether the reader is at the bottom of the chat: it stays in view when the chat or its content resizes.
  let stuck = true;
  new ResizeObserver(() => { if (stuck) log.scrollTop = log.scrollHeight; }).observe(log);

  /** Draws `messages`, keeping what the reader looks at in place (or the bottom in view when they were there). */
  function render() {
    const fromBottom = log.scrollHeight - log.scrollTop;
    const seen = new Set(messages.map((message) => message.id));
    for (const id of rows.keys()) if (!seen.has(id)) rows.delete(id);
    list.replaceChildren(...withDays());
    empty.hidden = messages.length > 0 || loading;
    log.scrollTop = stuck ? log.scrollHeight : log.scrollHeight - fromBottom;
  }

  let reach = 0; // how many messages the person went back to: no refresh shows fewer (stored ones permitting)

  /** The newest `count` stored messages (or as many as the person went back to), a page at a time, oldest first. */
  async function reload(count) {
    count = Math.max(count, reach);
    const mine = ++generation;
    const items = [];
    let cursor;
    do {
      const page = await rpc.call('messages.list', { limit: Math.min(500, count - items.length), ...(cursor ? { cursor } : {}) });
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor && items.length < count);
    if (mine !== generation) return;
    messages = items.reverse();
    nextCursor = cursor;
    render();
  }

  function setLoading(on) {
    loading = on;
    log.setAttribute('aria-busy', String(on));
    loadButton.disabled = on;
    spinner.hidden = !on;
    if (on) empty.hidden = true;
  }

  /** @type {AbortController | null} the feed load in flight, if any */
  let loadAbort = null;

  /** The next older batch: stored messages first, then the feed's (`messages.loadMore`). */
  async function loadEarlier() {
    if (loading) return;
    setLoading(true);
    showError(loadError, null);
    refreshFailed = false;
    endAlert.hidden = true;
    endAlert.textContent = '';
    try {
      if (nextCursor) {
        reach = messages.length + further(messages.length, PAGE);
        await reload(reach);
      } else {
        // Leaving Messages aborts the load: the server stops waiting on the feed for a page not looking.
        loadAbort = new AbortController();
        const { items, endOfHistory } = await rpc.call('messages.loadMore', { limit: further(messages.length, BATCH) },
          { signal: loadAbort.signal });
        ended = endOfHistory;
        reach = messages.length + items.length;
        if (items.length) await reload(reach);
        if (endOfHistory) {
          endAlert.hidden = false;
          endAlert.textContent = t('messages.end');
        }
        loadButton.hidden = ended; // at the end of history there is nothing to load: the note alone says so
      }
    } catch (failure) {
      if (!loadAbort?.signal.aborted) showError(loadError, failure);
    } finally {
      loadAbort = null;
      setLoading(false);
      empty.hidden = messages.length > 0;
    }
  }

  async function start() {
    started = true;
    try {
      stuck = true;
      await reload(PAGE);
      // The top of the chat is in view when its messages do not fill it: the next batch comes, as on scrolling up.
      if (log.scrollHeight <= log.clientHeight) await loadEarlier();
    } catch (failure) {
      started = false;
      showError(loadError, failure);
    }
  }

  let refreshFailed = false; // the error at the top is a failed refresh's (a later one that works clears it)
  async function refresh() {
    if (!started) return start();
    try {
      await reload(Math.max(PAGE, messages.length + BATCH));
      if (refreshFailed) showError(loadError, null);
      refreshFailed = false;
    } catch (failure) {
      showError(loadError, failure);
      refreshFailed = true;
    }
    return undefined;
  }
  const refreshSoon = coalesce(refresh);

  log.addEventListener('scroll', () => {
    stuck = atBottom();
    if (log.scrollTop <= 4 && log.scrollHeight > log.clientHeight && !loading && !ended) loadEarlier();
  });

  composer.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (sendButton.disabled) return;
    const text = input.value;
    sendButton.disabled = true;
    try {
      await rpc.call('messages.send', { text });
      if (input.value === text) input.value = '';
      showError(sendError, null);
      stuck = true;
      await reload(Math.max(PAGE, messages.length + 1));
    } catch (failure) {
      showError(sendError, failure);
    } finally {
      sendButton.disabled = false;
      input.focus();
    }
  });

  /**
   * The detail sheet: date, avatar, author and text, "Delete message", and Close. Deleted elsewhere while open,
   * it stays and says so (the focus on Close, never on another message).
   */
  function showDetail(message) {
    const error = errorLine();
    const gone = h('p', { class: 'message-gone', role: 'status', hidden: true });
    const close = h('button', { type: 'button', class: 'message-close', onclick: () => dialog.close() }, t('close'));
    const remove = h('button', { type: 'button', class: 'danger message-delete', onclick: () => deleteMessage() }, t('messages.delete'));
    const content = h('div', { class: 'message-detail' },
      avatar(message.author, 'large'),
      h('h2', { class: 'message-detail-author' }, message.author.name),
      h('time', { class: 'message-detail-date', datetime: message.sentAt }, stamp(message.sentAt)),
      h('p', { class: 'message-detail-text', dir: 'auto' }, message.text),
      gone, error,
      h('div', { class: 'actions message-detail-actions' }, close, remove));
    const closed = openDialog(content, { label: t('messages.from', { name: message.author.name }), className: 'message-sheet',
      item: { domain: 'messages', id: message.id } });
    const dialog = content.closest('dialog');
    close.focus();
    let deleting = false; // by this sheet's own button: not "elsewhere"
    const mine = {
      id: message.id,
      gone() {
        if (deleting) return;
        gone.textContent = t('messages.gone');
        gone.hidden = false;
        showError(error, null);
        const hadFocus = dialog.contains(document.activeElement) && document.activeElement !== close;
        remove.hidden = true;
        if (hadFocus || !dialog.contains(document.activeElement)) close.focus();
      },
    };
    detail = mine;
    closed.then(() => {
      if (detail === mine) detail = null;
      const button = list.querySelector(`button[data-id="${CSS.escape(message.id)}"]`);
      if (button && !section.hidden) button.focus();
      else input.focus();
    });

    async function deleteMessage() {
      deleting = true;
      remove.disabled = true;
      try {
        // Deleted elsewhere meanwhile: as the person wanted.
        await rpc.call('messages.delete', { id: message.id }).catch((failure) => { if (failure.reason !== 'notFound') throw failure; });
        messages = messages.filter((other) => other.id !== message.id);
        render();
        dialog.close('deleted');
      } catch (failure) {
        deleting = false;
        showError(error, failure);
        remove.disabled = false;
      }
    }
  }

  /** Opens the message `id` (from search). */
  async function open(id) {
    try {
      if (!started) await start();
      const message = messages.find((known) => known.id === id) ?? await rpc.call('messages.get', { id });
      showDetail(message);
    } catch (failure) {
      showError(loadError, failure);
    }
  }

  function fit() {
    if (section.hidden) return;
    const top = chat.getBoundingClientRect().top + window.scrollY;
    const below = parseFloat(getComputedStyle(section.parentElement).paddingBottom) || 0;
    chat.style.height = `${Math.max(320, window.innerHeight - top - below)}px`;
  }
  window.addEventListener('resize', fit);
  input.addEventListener('input', () => showError(sendError, null));

  return {
    show() {
      fit();
      if (!started) return start();
      refreshSoon();
      // A load cut short by leaving (below) comes again when the top of the chat is still in view.
      if (!ended && !loading && log.scrollHeight <= log.clientHeight) loadEarlier();
      return undefined;
    },
    hide() {
      loadAbort?.abort();
    },
    refresh: refreshSoon,
    changed(event) {
      if (event.domain !== 'messages') return;
      if (event.kind === 'deleted' && detail?.id === event.id) detail.gone();
      if (started) refreshSoon();
    },
    async resync() {
      if (started) refreshSoon();
      const open = detail;
      if (!open) return;
      // The message shown in the sheet may have been deleted among the skipped changes.
      const gone = await rpc.call('messages.get', { id: open.id }).then(() => false, (failure) => failure.reason === 'notFound');
      if (gone && detail === open) open.gone();
    },
    open,
    translate() {
      translateLabels();
      if (!endAlert.hidden) endAlert.textContent = t('messages.end');
      render();
    },
  };
}
