// @ts-check
// The board: posts with their votes in the order the server sorts them (votes, title, new, hot, best), a vote
// up or down per browser (a voter id kept in localStorage), a new post with a counter to 255, delete after
// asking. The server decides every rule and every order; the page shows its answers.
import { arrange, closedByBack, coalesce, confirmDialog, errorLine, h, showError } from './ui.js';
import { stamp } from './dates.js';
import { extend, language, t } from './i18n.js';
import { icon } from './icons.js';

extend({
  en: {
    'board.empty': 'No posts yet',
    'board.new': 'New Post',
    'board.list': 'Posts',
    'board.titleField': 'Title',
    'board.sort': 'Sort',
    'board.sort.votes': 'Votes',
    'board.sort.title': 'Title',
    'board.sort.new': 'New',
    'board.sort.hot': 'Hot',
    'board.sort.best': 'Best',
    'board.up': 'Upvote “{title}”',
    'board.down': 'Downvote “{title}”',
    'board.votes': 'votes',
    'board.counts': '{ups} up, {downs} down',
    'board.delete': 'Delete “{title}”',
    'board.confirmDelete': 'Delete “{title}”?',
    'board.more': 'More posts', 'board.resort': 'Show the new order',
    'board.count': '{count} of {limit} characters',
    'board.gone': '“{title}” was deleted somewhere else.',
  },
  ru: {
    'board.empty': 'Постов пока нет',
    'board.new': 'Новый пост',
    'board.list': 'Посты',
    'board.titleField': 'Заголовок',
    'board.sort': 'Сортировка',
    'board.sort.votes': 'Голоса',
    'board.sort.title': 'Заголовок',
    'board.sort.new': 'Новые',
    'board.sort.hot': 'Горячие',
    'board.sort.best': 'Лучшие',
    'board.up': 'Голос за «{title}»',
    'board.down': 'Голос против «{title}»',
    'board.votes': 'голосов',
    'board.counts': 'за: {ups}, против: {downs}',
    'board.delete': 'Удалить «{title}»',
    'board.confirmDelete': 'Удалить «{title}»?',
    'board.more': 'Ещё посты', 'board.resort': 'Показать новый порядок',
    'board.count': '{count} из {limit} символов',
    'board.gone': '«{title}» удалён в другом месте.',
  },
  ja: {
    'board.empty': '投稿はまだありません',
    'board.new': '新規投稿',
    'board.list': '投稿',
    'board.titleField': 'タイトル',
    'board.sort': '並べ替え',
    'board.sort.votes': '票数',
    'board.sort.title': 'タイトル',
    'board.sort.new': '新着',
    'board.sort.hot': '注目',
    'board.sort.best': 'ベスト',
    'board.up': '「{title}」に賛成',
    'board.down': '「{title}」に反対',
    'board.votes': '票',
    'board.counts': '賛成 {ups}・反対 {downs}',
    'board.delete': '「{title}」を削除',
    'board.confirmDelete': '「{title}」を削除しますか？',
    'board.more': 'さらに表示', 'board.resort': '新しい順に並べる',
    'board.count': '{count} / {limit} 文字',
    'board.gone': '「{title}」は別の場所で削除されました。',
  },
});

const SORTS = ['votes', 'title', 'new', 'hot', 'best'];
/** The longest title the original's text field takes; the server checks it, the counter only shows it. */
const TITLE_LIMIT = 255;
const PAGE = 50;

/** This browser's voter id: one vote per post per browser, kept across visits. */
function voterId() {
  let id = localStorage.getItem('satchel.voter');
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = `web-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
    localStorage.setItem('satchel.voter', id);
  }
  return id;
}

/** The characters of `text` as the server counts them (grapheme clusters). */
function graphemes(text) {
  if (typeof Intl.Segmenter === 'function') return [...new Intl.Segmenter(language()).segment(text)].map((piece) => piece.segment);
  return [...text];
}

const characters = (text) => graphemes(text).length;

/**
 * Mounts the screen in `section`.
 * @param {HTMLElement} section
 * @param {import('./types.js').Context} context
 * @returns {import('./types.js').Screen}
 */
export function mount(section, { rpc }) {
  const voter = voterId();
  let sort = SORTS.includes(localStorage.getItem('satchel.board.sort')) ? localStorage.getItem('satchel.board.sort') : 'votes';
  let nextCursor = null;
  let loaded = false;
  /** id → {id, li, up, down, count, title, meta, remove, error, post} */
  const rows = new Map();

  // Where the focus goes when the post holding it goes by no act of the person's: to no other post.
  const heading = h('h2', { tabindex: '-1' }, t('board'));
  const sortLabel = h('span', { class: 'board-sort-label' }, t('board.sort'));
  const sortSelect = h('select', { class: 'board-sort', onchange: () => changeSort(sortSelect.value) },
    SORTS.map((value) => h('option', { value }, t(`board.sort.${value}`))));
  sortSelect.value = sort;
  const newLabel = h('span', { class: 'board-new-label' }, t('board.new'));
  const newButton = h('button', { type: 'button', class: 'board-new primary', onclick: () => compose() }, icon('plus'), newLabel);
  const listError = errorLine();
  const status = h('p', { class: 'visually-hidden', role: 'status' });
  // What became of the post the person was on, in words (until their next step).
  const gone = h('p', { class: 'board-gone', role: 'status', hidden: true });
  let goneTitle = '';
  const sayGone = (title) => {
    goneTitle = title;
    gone.textContent = title ? t('board.gone', { title }) : '';
    gone.hidden = !title;
  };
  const list = h('ul', { class: 'list board-list', 'aria-label': t('board.list') });
  const empty = h('p', { class: 'empty board-empty', hidden: true }, t('board.empty'));
  const more = h('button', { type: 'button', class: 'button board-more', hidden: true, onclick: () => loadMore() }, t('board.more'));
  // After a vote (or a change from elsewhere) the posts stay where they are, as the original keeps them until
  // Reload: the post under the pointer does not jump. The new order is one click away.
  const resort = h('button', { type: 'button', class: 'button board-resort', hidden: true, onclick: () => load() }, t('board.resort'));
  section.classList.add('board');
  section.append(
    h('div', { class: 'toolbar board-toolbar' }, heading,
      h('div', { class: 'board-controls' }, h('label', { class: 'board-sort-field' }, sortLabel, sortSelect), newButton)),
    listError, resort, status, gone, list, empty, more);

  // Rows

  function createRow(post) {
    const row = { id: post.id };
    row.up = h('button', { type: 'button', class: 'board-vote board-up', onclick: () => vote(row, 'up') }, icon('up'));
    row.down = h('button', { type: 'button', class: 'board-vote board-down', onclick: () => vote(row, 'down') }, icon('down'));
    row.count = h('span', { class: 'board-count' });
    row.title = h('p', { class: 'board-title' });
    row.meta = h('p', { class: 'board-meta' });
    row.remove = h('button', { type: 'button', class: 'board-delete', onclick: () => remove(row) }, icon('trash'));
    row.error = errorLine();
    row.li = h('li', { class: 'card board-post', tabindex: '-1', dataset: { id: post.id } },
      h('div', { class: 'board-votes' }, row.up, row.count, row.down),
      h('div', { class: 'board-main' }, row.title, row.meta, row.error),
      row.remove);
    show(row, post);
    return row;
  }

  function show(row, post) {
    row.post = post;
    row.li.dataset.myVote = post.myVote ?? '';
    row.title.textContent = post.title;
    row.count.replaceChildren(String(post.votes), h('span', { class: 'visually-hidden' }, ` ${t('board.votes')}`));
    row.meta.textContent = `${t('board.counts', { ups: post.ups, downs: post.downs })} · ${stamp(post.createdAt)}`;
    row.up.setAttribute('aria-pressed', String(post.myVote === 'up'));
    row.down.setAttribute('aria-pressed', String(post.myVote === 'down'));
    row.up.setAttribute('aria-label', t('board.up', { title: post.title }));
    row.down.setAttribute('aria-label', t('board.down', { title: post.title }));
    row.remove.setAttribute('aria-label', t('board.delete', { title: post.title }));
  }

  /** The rows as shown, top to bottom. */
  const shownRows = () => [...list.children].map((li) => rows.get(/** @type {HTMLElement} */ (li).dataset.id)).filter(Boolean);

  /**
   * Shows `posts`, keeping each post's element (and the focus inside it): in the server's order, or, with
   * `keepOrder`, where they are now (new ones after them), offering the server's order with `resort`.
   */
  function render(posts, { append = false, keepOrder = false } = {}) {
    const ordered = append || keepOrder ? shownRows() : [];
    if (keepOrder) {
      const current = new Set(posts.map((post) => post.id));
      ordered.splice(0, ordered.length, ...ordered.filter((row) => current.has(row.id)));
      for (const row of ordered) show(row, posts.find((post) => post.id === row.id));
    }
    const keep = new Set(ordered.map((row) => row.id));
    for (const post of posts) {
      if (keep.has(post.id)) continue;
      let row = rows.get(post.id);
      if (row) show(row, post);
      else rows.set(post.id, (row = createRow(post)));
      ordered.push(row);
      keep.add(post.id);
    }
    const focused = rows.get(/** @type {HTMLElement | null} */ (document.activeElement?.closest?.('li.board-post'))?.dataset.id);
    for (const [id, row] of rows) {
      if (keep.has(id)) continue;
      rows.delete(id);
      row.li.remove();
    }
    arrange(list, ordered);
    if (!append) resort.hidden = ordered.every((row, index) => row.id === posts[index]?.id);
    if (focused && !rows.has(focused.id)) lostFocus(focused);
    empty.hidden = !loaded || rows.size > 0;
  }


  /**
   * The post holding the focus left the list by no act of the person's: the focus goes to the heading, never to
   * another post's arrow, where the next key would vote; when the post was deleted elsewhere, the page says so.
   */
  async function lostFocus(row) {
    heading.focus();
    const deleted = await rpc.call('board.get', { id: row.id }).then(() => false, (error) => error.reason === 'notFound');
    if (deleted) sayGone(row.post.title);
  }

  // Loading

  async function load({ keepOrder = false } = {}) {
    const wanted = sort;
    try {
      const page = await rpc.call('board.list', { sort, voter, limit: Math.min(500, Math.max(PAGE, list.children.length)) });
      if (wanted !== sort) return;
      loaded = true;
      nextCursor = page.nextCursor;
      render(page.items, { keepOrder: keepOrder && rows.size > 0 });
      more.hidden = !nextCursor;
      showError(listError, null);
    } catch (error) {
      showError(listError, error);
    }
  }

  async function loadMore() {
    if (!nextCursor) return;
    try {
      const page = await rpc.call('board.list', { sort, voter, limit: PAGE, cursor: nextCursor });
      nextCursor = page.nextCursor;
      render(page.items, { append: true });
      more.hidden = !nextCursor;
      showError(listError, null);
    } catch (error) {
      if (error.data?.field === 'cursor') {
        nextCursor = null;
        await load();
      } else {
        showError(listError, error);
      }
    }
  }

  const schedule = coalesce(() => load({ keepOrder: true }));

  function changeSort(value) {
    sayGone('');
    sort = value;
    localStorage.setItem('satchel.board.sort', value);
    load();
  }

  // Calls

  async function vote(row, direction) {
    sayGone('');
    // Pressing the pressed arrow again takes the vote back, as on Reddit.
    const wanted = row.post.myVote === direction ? 'clear' : direction;
    try {
      const post = await rpc.call('board.vote', { id: row.id, direction: wanted, voter });
      showError(row.error, null);
      if (rows.get(post.id) === row) show(row, post);
    } catch (error) {
      showError(row.error, error);
    }
    schedule();
  }

  async function remove(row) {
    sayGone('');
    const title = row.post.title;
    if (!await confirmDialog(t('board.confirmDelete', { title }), t('delete'), t('cancel'))) {
      row.remove.focus();
      return;
    }
    const next = rows.get(row.li.nextElementSibling?.dataset.id) ?? rows.get(row.li.previousElementSibling?.dataset.id);
    try {
      await rpc.call('board.delete', { id: row.id });
      rows.delete(row.id);
      row.li.remove();
      empty.hidden = rows.size > 0;
      (next?.up ?? newButton).focus();
    } catch (error) {
      showError(row.error, error);
      row.remove.focus();
    }
    schedule();
  }

  /** The original's "add" screen, as a sheet: a title field with its counter, Cancel and Done. */
  function compose() {
    sayGone('');
    const counterId = `board-counter-${Date.now()}`;
    const input = h('input', { type: 'text', class: 'board-new-title', name: 'title', autocomplete: 'off',
      placeholder: t('board.titleField'), 'aria-label': t('board.titleField'), 'aria-describedby': counterId, enterkeyhint: 'done' });
    const counter = h('span', { class: 'board-counter', id: counterId });
    const error = errorLine();
    const done = h('button', { type: 'submit', class: 'primary board-done' }, t('done'));
    const cancel = h('button', { type: 'button', class: 'board-cancel' }, t('cancel'));
    const count = () => {
      const used = characters(input.value);
      counter.textContent = `${used}/${TITLE_LIMIT}`;
      counter.setAttribute('aria-label', t('board.count', { count: used, limit: TITLE_LIMIT }));
      counter.classList.toggle('over', used > TITLE_LIMIT);
    };
    // The field stops taking input at the limit, as the original's does: what goes past it (typed or
    // pasted) is dropped where it came in, and the rest of the title stays. An IME's text is cut once it is
    // composed.
    const limit = () => {
      const pieces = graphemes(input.value);
      const excess = pieces.length - TITLE_LIMIT;
      if (excess <= 0) return;
      let caret = 0;
      let at = 0;
      while (at < pieces.length && caret < input.selectionEnd) caret += pieces[at++].length;
      const from = Math.max(0, at - excess);
      const kept = [...pieces.slice(0, from), ...pieces.slice(at)];
      if (kept.length > TITLE_LIMIT) kept.length = TITLE_LIMIT;
      input.value = kept.join('');
      const position = pieces.slice(0, from).join('').length;
      input.setSelectionRange(position, position);
    };
    input.addEventListener('input', (event) => {
      if (!event.isComposing) limit();
      count();
      showError(error, null);
    });
    input.addEventListener('compositionend', () => { limit(); count(); });
    count();
    const form = h('form', { class: 'board-compose' },
      h('h2', {}, t('board.new')),
      h('div', { class: 'board-field' }, input, counter),
      error,
      h('div', { class: 'actions' }, cancel, done));
    const dialog = h('dialog', { class: 'sheet board-sheet', 'aria-label': t('board.new') }, form);
    let busy = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (busy) return;
      busy = true;
      try {
        const post = await rpc.call('board.create', { title: input.value });
        dialog.close();
        await load();
        const row = rows.get(post.id);
        if (row) {
          row.li.scrollIntoView({ block: 'nearest' });
          row.up.focus();
        }
      } catch (failure) {
        showError(error, failure);
        input.focus();
      } finally {
        busy = false;
      }
    });
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (!section.contains(document.activeElement)) newButton.focus();
    });
    document.body.append(dialog);
    dialog.showModal();
    closedByBack(/** @type {HTMLDialogElement} */ (dialog));
    input.focus();
  }

  load();

  return {
    show() { load(); },
    refresh() { return load(); },
    changed(event) {
      if (event.domain === 'board') schedule();
    },
    resync() { schedule(); },
    async open(id) {
      if (!rows.has(id)) await load();
      const row = rows.get(id);
      if (!row) return;
      row.li.scrollIntoView({ block: 'center' });
      row.li.focus();
    },
    translate() {
      heading.textContent = t('board');
      sortLabel.textContent = t('board.sort');
      for (const option of sortSelect.options) option.textContent = t(`board.sort.${option.value}`);
      newLabel.textContent = t('board.new');
      list.setAttribute('aria-label', t('board.list'));
      empty.textContent = t('board.empty');
      more.textContent = t('board.more');
      resort.textContent = t('board.resort');
      sayGone(goneTitle);
      for (const row of rows.values()) show(row, row.post);
    },
  };
}
