// @ts-check
// Moments: a personal diary. Posts newest first (date, a five-line excerpt, its first photos as WeChat shows them),
// a detail screen with the whole text and the photo grid, one form that creates and edits.
import { stamp } from './dates.js';
import { extend, t } from './i18n.js';
import { editPost as openForm } from './moment-form.js';
import { opened } from './navigation.js';
import { coalesce, confirmDialog, errorLine, h, labels, showError, storedImage } from './ui.js';

extend({
  en: {
    'moments.new': 'New post', 'moments.edit': 'Edit post', 'moments.text': 'Text',
    'moments.placeholder': 'What happened today?', 'moments.addPhotos': 'Add photos',
    'moments.removePhoto': 'Remove photo {n}', 'moments.photo': 'Photo {n} of {count}', 'moments.photos': 'Photos',
    'moments.empty': 'No moments yet', 'moments.more': 'Show earlier posts',
    'moments.deleteQuestion': 'Delete this post?', 'moments.posts': 'Posts', 'moments.post': 'Post',
    'moments.tooMany': 'A post holds at most {limit} photos: the first {kept} you picked were added.',
  },
  ru: {
    'moments.new': 'Новый пост', 'moments.edit': 'Правка', 'moments.text': 'Текст',
    'moments.placeholder': 'Что сегодня произошло?', 'moments.addPhotos': 'Добавить фото',
    'moments.removePhoto': 'Убрать фото {n}', 'moments.photo': 'Фото {n} из {count}', 'moments.photos': 'Фото',
    'moments.empty': 'Моментов пока нет', 'moments.more': 'Показать более ранние',
    'moments.deleteQuestion': 'Удалить этот пост?', 'moments.posts': 'Посты', 'moments.post': 'Пост',
    'moments.tooMany': 'В посте не больше {limit} фото: добавлены первые выбранные ({kept}).',
  },
  ja: {
    'moments.new': '新しい投稿', 'moments.edit': '投稿を編集', 'moments.text': 'テキスト',
    'moments.placeholder': '今日は何がありましたか？', 'moments.addPhotos': '写真を追加',
    'moments.removePhoto': '写真 {n} を外す', 'moments.photo': '写真 {n}/{count}', 'moments.photos': '写真',
    'moments.empty': 'モーメントはまだありません',
    'moments.more': '以前の投稿を表示', 'moments.deleteQuestion': 'この投稿を削除しますか？',
    'moments.posts': '投稿', 'moments.post': '投稿',
    'moments.tooMany': '投稿に入る写真は {limit} 枚までです。選んだうち最初の {kept} 枚を追加しました。',
  },
});

const PAGE = 50;

/**
 * Mounts the screen in `section`.
 * @param {HTMLElement} section
 * @param {import('./types.js').Context} context
 * @returns {import('./types.js').Screen}
 */
export function mount(section, { rpc }) {
  let previews = [];
  let nextCursor = null;
  let post = null; // the post the detail screen shows
  let generation = 0;

  const { label, translate: translateLabels } = labels(t);

  // The list screen.
  const heading = label(h('h2'), 'moments');
  const newButton = label(h('button', { type: 'button', class: 'icon-button primary moments-new', onclick: () => editPost(null) }, '+'), 'moments.new', 'aria-label');
  const listError = errorLine();
  const empty = label(h('p', { class: 'empty', hidden: true }), 'moments.empty');
  const list = h('ol', { class: 'list moments-list' });
  label(list, 'moments.posts', 'aria-label');
  const moreButton = label(h('button', { type: 'button', class: 'button moments-more', hidden: true, onclick: () => showMore() }), 'moments.more');
  const listView = h('div', { class: 'moments-view moments-list-view' },
    h('div', { class: 'toolbar' }, heading, newButton), listError, empty, list, moreButton);

  // The detail screen.
  const backButton = h('button', { type: 'button', class: 'moments-back', onclick: () => closeDetail() },
    h('span', { 'aria-hidden': 'true' }, '‹ '), label(h('span'), 'back'));
  const editButton = label(h('button', { type: 'button', class: 'moments-edit', onclick: () => editPost(post) }), 'edit');
  const deleteButton = label(h('button', { type: 'button', class: 'moments-delete danger', onclick: () => deletePost() }), 'delete');
  const detailError = errorLine();
  const detailDate = h('h2', { class: 'moment-detail-date', tabindex: '-1' });
  const detailText = h('p', { class: 'moment-detail-text' });
  const detailGrid = h('div', { class: 'moment-grid' });
  label(detailGrid, 'moments.photos', 'aria-label');
  const detailView = h('div', { class: 'moments-view moments-detail-view', hidden: true },
    h('div', { class: 'toolbar' }, backButton, h('div', { class: 'actions moments-detail-actions' }, editButton, deleteButton)),
    detailError,
    h('article', { class: 'card moment-detail' }, detailDate, detailText, detailGrid));
  section.append(listView, detailView);

  const cards = new Map(); // post id → {key, element}
  // A post's photos when its preview carries fewer than it has (the first two): read from the post, once.
  const allPhotos = new Map(); // post id → its images
  const reading = new Map(); // post id → the read under way (a change forgets it: what it brings is old)

  function card(preview) {
    const images = allPhotos.get(preview.id) ?? preview.thumbnails;
    if (images.length < preview.imageCount) readPhotos(preview.id);
    const date = stamp(preview.createdAt);
    const key = JSON.stringify([date, preview.excerpt, images.map((image) => image.id), t('moments.post')]);
    const known = cards.get(preview.id);
    if (known?.key === key) return known.element;
    const button = h('button', { type: 'button', class: 'moment-card card', dataset: { id: preview.id }, onclick: () => open(preview.id) },
      h('time', { class: 'moment-date', datetime: preview.createdAt }, date),
      preview.excerpt ? h('span', { class: 'moment-excerpt', dir: 'auto' }, preview.excerpt) : null,
      feedPhotos(images));
    if (!preview.excerpt) button.setAttribute('aria-label', `${t('moments.post')} ${date}`);
    const element = h('li', { dataset: { id: preview.id } }, button);
    cards.set(preview.id, { key, element });
    return element;
  }

  async function readPhotos(id) {
    if (allPhotos.has(id) || reading.has(id)) return;
    const mine = {};
    reading.set(id, mine);
    try {
      const { images } = await rpc.call('diary.get', { id });
      if (reading.get(id) !== mine) return;
      allPhotos.set(id, images);
      renderList();
    } catch {
      // gone meanwhile, or not readable now: its first photos stay, and the next change reads it again
    } finally {
      if (reading.get(id) === mine) reading.delete(id);
    }
  }

  /** A post changed (`null`: any may have): the photos read from it are read again. */
  function photosChanged(id) {
    for (const known of id ? [id] : [...allPhotos.keys(), ...reading.keys()]) {
      allPhotos.delete(known);
      reading.delete(known);
    }
  }

  /**
   * A post's photos in the feed as WeChat shows them: one at its own shape (kept between 1:3 and 3:1, cropped
   * beyond), its longer side about two-thirds of the column, drawn from the display size; more as squares of a
   * three-column grid (four as two by two), from the thumbnails.
   */
  function feedPhotos(images) {
    if (!images.length) return null;
    if (images.length > 1) {
      return h('span', { class: `moment-thumbs moment-photos-grid count-${images.length}` },
        images.map((image) => storedImage(image, { class: 'moment-thumb' })));
    }
    const [image] = images;
    const ratio = Math.min(3, Math.max(1 / 3, image.width / image.height));
    return h('span', { class: 'moment-thumbs moment-photos-one' },
      storedImage(image, { class: 'moment-thumb', style: { '--ratio': String(ratio) } }, 'display'));
  }

  function renderList() {
    const seen = new Set(previews.map((preview) => preview.id));
    for (const id of cards.keys()) if (!seen.has(id)) cards.delete(id);
    for (const id of allPhotos.keys()) if (!seen.has(id)) allPhotos.delete(id);
    list.replaceChildren(...previews.map(card));
    empty.hidden = previews.length > 0;
    moreButton.hidden = !nextCursor;
  }

  function renderDetail() {
    if (!post) return;
    detailDate.textContent = stamp(post.createdAt);
    detailText.textContent = post.text;
    detailText.hidden = !post.text;
    detailGrid.replaceChildren(...post.layout.map((row) => h('div', { class: `moment-row columns-${row.length}` },
      row.map((index) => storedImage(post.images[index], {
        class: 'moment-photo', alt: t('moments.photo', { n: index + 1, count: post.images.length }),
      }, 'display')))));
    detailGrid.classList.toggle('single', post.images.length === 1);
    detailGrid.hidden = post.images.length === 0;
  }

  /** The newest `count` previews, in the server's order, a page at a time. */
  async function fetchPreviews(count) {
    const items = [];
    let cursor;
    do {
      const page = await rpc.call('diary.list', { limit: Math.min(500, count - items.length), ...(cursor ? { cursor } : {}) });
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor && items.length < count);
    return { items, cursor };
  }

  let reloadFailed = false; // the error above the list is a failed reload's (a later one that works clears it)
  async function reload(count = Math.max(PAGE, previews.length)) {
    const mine = ++generation;
    try {
      const { items, cursor } = await fetchPreviews(count);
      if (mine !== generation) return;
      previews = items;
      nextCursor = cursor;
      if (reloadFailed) showError(listError, null);
      reloadFailed = false;
      renderList();
    } catch (failure) {
      if (mine !== generation) return;
      showError(listError, failure);
      reloadFailed = true;
    }
  }

  async function showMore() {
    moreButton.disabled = true;
    await reload(previews.length + PAGE);
    moreButton.disabled = false;
  }

  async function reloadDetail() {
    if (!post) return;
    const id = post.id;
    try {
      const fresh = await rpc.call('diary.get', { id });
      if (post?.id !== id) return;
      post = fresh;
      showError(detailError, null);
      renderDetail();
    } catch (failure) {
      if (post?.id !== id) return;
      if (failure.reason === 'notFound') closeDetail();
      else showError(detailError, failure);
    }
  }

  const refresh = coalesce(() => Promise.all([reload(), reloadDetail()]));

  let listScroll = 0; // where the list was scrolled when a post was opened: Back returns there
  let shown = null; // the open post in the browser's history: its Back closes it

  function showDetail(next) {
    if (!post) listScroll = window.scrollY;
    if (post?.id !== next.id) {
      shown?.closed();
      shown = opened({ item: { domain: 'diary', id: next.id }, dismiss: closeDetail });
    }
    post = next;
    showError(detailError, null);
    renderDetail();
    listView.hidden = true;
    detailView.hidden = false;
    // The detail opens at its top, Back, Edit and Delete in view below the tabs, wherever the list was.
    window.scrollTo({ top: 0 });
    detailDate.focus({ preventScroll: true });
  }

  function closeDetail() {
    const id = post?.id;
    const wasOpen = Boolean(post);
    post = null;
    shown?.closed();
    shown = null;
    detailView.hidden = true;
    listView.hidden = false;
    if (wasOpen) window.scrollTo({ top: listScroll });
    const button = id && list.querySelector(`li[data-id="${CSS.escape(id)}"] button`);
    if (button && !section.hidden) button.focus({ preventScroll: true });
  }

  /** Shows the post `id` on the detail screen (from the list, or from search). */
  async function open(id) {
    showError(listError, null);
    reloadFailed = false;
    try {
      showDetail(await rpc.call('diary.get', { id }));
    } catch (failure) {
      closeDetail();
      showError(listError, failure);
    }
  }

  async function deletePost() {
    const target = post;
    if (!target || !(await confirmDialog(t('moments.deleteQuestion'), t('delete'), t('cancel')))) return;
    try {
      await rpc.call('diary.delete', { id: target.id });
      previews = previews.filter((preview) => preview.id !== target.id);
      renderList();
      if (post?.id === target.id) closeDetail();
      newButton.focus();
      reload();
    } catch (failure) {
      showError(detailError, failure);
    }
  }

  let editing = null; // the open edit form, told when its post changes elsewhere
  function editPost(existing) {
    let mine = null;
    openForm(existing, {
      rpc,
      saved(saved, edited) {
        photosChanged(saved.id);
        if (edited && post?.id === saved.id) {
          post = saved;
          renderDetail();
        }
        reload();
      },
      opened(form) { editing = mine = form; },
    }).then(() => { if (editing === mine) editing = null; });
  }

  return {
    show() { refresh(); },
    refresh,
    changed(event) {
      if (event.domain !== 'diary') return;
      photosChanged(event.id);
      refresh();
      if (editing && event.id === editing.id) editing.notice();
    },
    resync() {
      photosChanged(null);
      refresh();
      editing?.notice(); // its post may be among the skipped changes: shown beside what was typed, if so
    },
    open,
    translate() {
      translateLabels();
      renderList();
      renderDetail();
    },
  };
}
