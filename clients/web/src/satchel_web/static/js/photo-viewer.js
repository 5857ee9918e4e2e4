// @ts-check
// A photo note in its viewer: the photo at the display size, its caption to edit, previous and next through the
// list, delete. When the photo note changes elsewhere while it is open, a caption the person typed meets the
// other (conflict.js): keep mine, use the other, or keep both; deleted there, what was typed is kept as a new
// photo note, the photo sent again as the viewer shows it (the server drops a photo with its note).
import { conflictPanel, versionText } from './conflict.js';
import { t } from './i18n.js';
import { confirmDialog, errorLine, h, imageURL, openDialog, showError, uploadImage } from './ui.js';

/**
 * The viewer of `photo`, in a dialog; resolves when it closes.
 * @param {any} photo
 * @param {{rpc: import('./rpc.js').Rpc, list: {items: any[], more: boolean}, loadMore: () => Promise<unknown>,
 *   saved: () => unknown, freeLimit: (error: any) => void,
 *   opened: (viewer: {readonly id: string, notice: () => Promise<void>}) => void}} context
 */
export async function viewPhoto(photo, { rpc, list, loadMore, saved, freeLimit, opened }) {
  let shown = photo; // the photo note on screen, as last read: a live refresh may reorder the list
  /** @type {Promise<Blob | null> | null} the shown photo as the viewer has it (from the browser's cache) */
  let copy = null;
  let busy = false;
  const img = h('img', { class: 'viewer-image', alt: '' });
  img.addEventListener('load', () => {
    copy = fetch(img.src).then((answer) => (answer.ok ? answer.blob() : null), () => null);
  });
  const caption = h('input', { type: 'text', name: 'caption', 'aria-label': t('caption'), placeholder: t('caption') });
  const error = errorLine();
  const close = (why = '') => form.closest('dialog').close(why);
  const typed = () => caption.value.trim() !== (shown.caption ?? '').trim();
  // What was typed is dropped only when the person says so.
  const mayLeave = async () => !typed() || confirmDialog(t('conflict.discard'), t('conflict.discardYes'), t('conflict.keepEditing'));
  const buttons = {
    previous: h('button', { type: 'button', 'aria-label': t('previous'), onclick: () => go(-1) }, '‹'),
    next: h('button', { type: 'button', 'aria-label': t('next'), onclick: () => go(1) }, '›'),
    remove: h('button', { type: 'button', class: 'danger', onclick: () => remove() }, t('delete')),
    close: h('button', { type: 'button', autofocus: true, onclick: async () => { if (await mayLeave()) close(); } }, t('close')),
    save: h('button', { type: 'submit', class: 'primary' }, t('save')),
  };
  const conflict = conflictPanel('photo', (version) => h('div', { class: 'conflict-version' },
    h('p', { class: 'conflict-text' }, versionText(version.caption ?? ''))), {
    keepMine: (theirs) => (theirs ? save(theirs).catch((failure) => showError(error, failure)) : addAgain()),
    async takeTheirs(theirs) {
      shown = theirs;
      caption.value = theirs.caption ?? '';
      settled();
    },
    // The same photo, a second note with the caption typed here.
    keepBoth: (theirs) => add({ imageId: theirs.image.id }),
  });
  const form = h('form', { method: 'dialog', class: 'viewer' },
    img, conflict.element, caption, error, h('div', { class: 'actions' }, ...Object.values(buttons)));

  function show() {
    caption.value = shown.caption ?? '';
    img.alt = shown.caption || '';
    img.width = shown.image.width;
    img.height = shown.image.height;
    copy = null;
    img.src = imageURL(shown.image.id, 'display');
    showError(error, null);
  }
  /** While a choice waits, nothing else is done with the photo. */
  function choosing(on) {
    for (const button of [buttons.previous, buttons.next, buttons.remove, buttons.save]) button.hidden = on;
  }
  function settled() {
    conflict.hide();
    choosing(false);
  }
  function conflicted(theirs) {
    showError(error, null);
    conflict.show(theirs);
    choosing(true);
  }

  /** The photo note as it is now elsewhere (`null`: deleted there; `undefined`: it could not be read). */
  const current = () => rpc.call('photos.get', { id: shown.id })
    .catch((failure) => (failure.reason === 'notFound' ? null : undefined));

  /**
   * `now` (the photo note as it is elsewhere) meets what is shown: deleted, or a caption changed there while
   * another was typed here, is the choice; else it is the one shown (a caption not typed in follows it).
   */
  function arrived(now) {
    if (now === null || (typed() && (now.caption ?? '') !== (shown.caption ?? '') && (now.caption ?? '') !== caption.value)) {
      conflicted(now);
      return;
    }
    const untouched = !typed();
    shown = now;
    if (untouched) caption.value = now.caption ?? '';
    img.alt = now.caption || '';
  }

  // Previous and next go round the list once it is all loaded; before that, next at the end loads more.
  async function go(step) {
    const at = list.items.findIndex((each) => each.id === shown.id);
    if (at < 0 || !(await mayLeave())) return; // a photo opened from search, further down than what is loaded
    if (at + step >= list.items.length && list.more) await loadMore();
    const { items } = list;
    shown = (list.more ? items[at + step] : items[(at + step + items.length) % items.length]) ?? shown;
    show();
  }

  /** Saves the caption over `over` (the version seen), or over the one shown. */
  async function save(over = shown) {
    busy = true;
    try {
      await rpc.call('photos.update', { id: over.id, caption: caption.value || null, ifRevision: over.revision });
      close('saved');
      saved();
    } catch (failure) {
      if (failure.reason !== 'revisionConflict' && failure.reason !== 'notFound') throw failure;
      const now = await current();
      if (now === undefined) throw failure;
      arrived(now);
      // Moved only (the caption as it was): saved over it at once.
      if (!conflict.open) await rpc.call('photos.update', { id: now.id, caption: caption.value || null, ifRevision: now.revision })
        .then(() => { close('saved'); saved(); });
    } finally {
      busy = false;
    }
  }

  /**
   * A new photo note of `image` with the caption typed here.
   * @param {{imageId?: string, uploadId?: string}} image
   */
  async function add(image) {
    try {
      await rpc.call('photos.add', { image, caption: caption.value || null });
      close('saved');
      saved();
    } catch (failure) {
      if (image.uploadId) rpc.call('images.discardUpload', { uploadId: image.uploadId }).catch(() => {}); // let go
      if (failure.reason === 'freeLimitReached') freeLimit(failure);
      showError(error, failure);
    }
  }

  /** Deleted elsewhere: the photo, as the viewer holds it, is sent again with the caption typed here. */
  async function addAgain() {
    const blob = await copy;
    if (!blob) {
      showError(error, new Error(t('uploadFailed')));
      return;
    }
    try {
      await add(await uploadImage(rpc, blob));
    } catch (failure) {
      showError(error, failure);
    }
  }

  form.addEventListener('keydown', (event) => {
    if (event.target === caption || conflict.open) return;
    if (event.key === 'ArrowLeft') go(-1);
    if (event.key === 'ArrowRight') go(1);
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy || conflict.open) return;
    try {
      await save();
    } catch (failure) {
      showError(error, failure);
    }
  });
  async function remove() {
    if (!(await confirmDialog(t('deletePhoto'), t('delete'), t('cancel')))) return;
    try {
      await rpc.call('photos.delete', { id: shown.id }).catch((failure) => { if (failure.reason !== 'notFound') throw failure; });
      close('deleted');
      saved();
    } catch (failure) {
      showError(error, failure);
    }
  }
  show();
  const closed = openDialog(form, { label: t('photoNotes'), className: 'wide', item: { domain: 'photos', id: photo.id } });
  // Escape, too, asks before dropping what was typed.
  form.closest('dialog').addEventListener('cancel', async (event) => {
    event.preventDefault();
    if (await mayLeave()) close();
  });
  opened({
    get id() { return shown.id; },
    // The photo note changed elsewhere while open: the person sees it at once, not at their next Save.
    async notice() {
      if (busy || conflict.open) return;
      const now = await current();
      if (now === undefined || busy || conflict.open || (now && now.revision <= shown.revision)) return;
      arrived(now);
    },
  });
  await closed;
}
