// @ts-check
// Moments' sheet: writing a post or editing one, text and up to four photos; when the post changes elsewhere
// while it is open, the other version beside what was typed (conflict.js).
import { conflictPanel, versionText } from './conflict.js';
import { t } from './i18n.js';
import { confirmDialog, errorLine, h, openDialog, showError, storedImage, uploadImage } from './ui.js';

// The form shows the picker while the post has fewer photos than the original allowed (the server decides).
const PICKER_SLOTS = 4;

/**
 * The creation form (`existing` null) or the edit form of `existing`: text and up to four photos.
 * @param {any} existing
 * @param {{rpc: import('./rpc.js').Rpc, saved: (post: any, edited: boolean) => void,
 *   opened: (form: {id?: string, notice: () => Promise<void>}) => void}} context
 */
export function editPost(existing, { rpc, saved: done, opened }) {
  let base = existing; // the version the person started from: their Save is checked against it
  // Each photo is {image} (already stored) or {file, preview, bar, uploadId?} (picked: sent as a file when
  // the post is saved, its progress on its tile; once sent, its upload is reused by a second Save).
  let photos = existing ? existing.images.map((image) => ({ image })) : [];
  let reading = Promise.resolve();
  let busy = false;
  const title = existing ? t('moments.edit') : t('moments.new');
  const text = h('textarea', { class: 'moment-text-input', rows: 8, autofocus: true, dir: 'auto', 'aria-label': t('moments.text'), placeholder: t('moments.placeholder') });
  text.value = existing?.text ?? '';
  const error = errorLine();
  const picker = h('input', { type: 'file', accept: 'image/*', multiple: true, class: 'visually-hidden moment-file', 'aria-label': t('moments.addPhotos') });
  const addTile = h('label', { class: 'moment-add-photo', title: t('moments.addPhotos') }, h('span', { 'aria-hidden': 'true' }, '+'), picker);
  const photoList = h('ul', { class: 'list moment-picked', 'aria-label': t('moments.photos') });
  const save = h('button', { type: 'submit', class: 'primary moment-save' }, t('save'));
  const photoKey = (list) => JSON.stringify(list.map((photo) => photo.image?.id ?? photo.preview));
  // Whether the form holds something the person typed or picked since `base` (white space alone is not).
  const typed = () => text.value.trim() !== (base?.text ?? '').trim()
    || photoKey(photos) !== photoKey(base ? base.images.map((image) => ({ image })) : []);
  async function leave() {
    if (typed() && !(await confirmDialog(t('conflict.discard'), t('conflict.discardYes'), t('conflict.keepEditing')))) return;
    dialog.close();
  }
  const cancel = h('button', { type: 'button', class: 'moment-cancel', onclick: leave }, t('cancel'));
  const conflict = conflictPanel('post', (version) => h('div', { class: 'conflict-version' },
    h('p', { class: 'conflict-text' }, versionText(version.text)),
    version.images.length
      ? h('span', { class: 'moment-thumbs conflict-photos' }, version.images.slice(0, 4).map((image) => storedImage(image, { class: 'moment-thumb' })))
      : null), {
    keepMine: (theirs) => submit(theirs ? { id: theirs.id, ifRevision: theirs.revision } : null),
    async takeTheirs(theirs) {
      base = theirs;
      text.value = theirs.text ?? '';
      forget(photos);
      photos = theirs.images.map((image) => ({ image }));
      renderPhotos();
      settled();
    },
    keepBoth: () => submit(null),
  });
  const form = h('form', { class: 'moment-form', novalidate: true },
    h('div', { class: 'sheet-bar' }, cancel, h('h2', {}, title), save),
    conflict.element, text, photoList, error);
  function settled() {
    conflict.hide();
    save.hidden = false;
  }
  async function conflicted() {
    let theirs = null;
    try {
      theirs = await rpc.call('diary.get', { id: base.id });
    } catch (failure) {
      if (failure.reason !== 'notFound') throw failure;
    }
    conflict.show(theirs);
    save.hidden = true;
  }

  /** Lets the browser free the picked files' previews (each holds its file until revoked). */
  function forget(list) {
    for (const photo of list) if (photo.preview) URL.revokeObjectURL(photo.preview);
  }

  function renderPhotos() {
    photoList.replaceChildren(...photos.map((photo, index) => h('li', { class: 'moment-picked-photo' },
      photo.image
        ? storedImage(photo.image, { alt: t('moments.photo', { n: index + 1, count: photos.length }) })
        : h('img', { src: photo.preview, decoding: 'async', alt: t('moments.photo', { n: index + 1, count: photos.length }) }),
      photo.image ? null : photo.bar,
      h('button', {
        type: 'button', class: 'moment-remove-photo', 'aria-label': t('moments.removePhoto', { n: index + 1 }),
        onclick: () => { forget(photos.splice(index, 1)); renderPhotos(); picker.focus(); },
      }, h('span', { 'aria-hidden': 'true' }, '×')))));
    if (photos.length < PICKER_SLOTS) photoList.append(h('li', { class: 'moment-picked-add' }, addTile));
  }

  picker.addEventListener('change', () => {
    let files = [...picker.files];
    picker.value = '';
    // A post holds four photos, as the original's: more picked at once keeps the first that fit, and says so.
    const room = PICKER_SLOTS - photos.length;
    if (files.length > room) {
      showError(error, new Error(t('moments.tooMany', { limit: PICKER_SLOTS, kept: room })));
      files = files.slice(0, room);
    } else {
      showError(error, null);
    }
    reading = reading.then(async () => {
      for (const file of files) {
        const bar = h('progress', { max: 1, value: 0, class: 'moment-upload', 'aria-label': `${t('uploading')}: ${file.name}` });
        photos.push({ file, preview: URL.createObjectURL(file), bar });
      }
      renderPhotos();
      if (photos.length >= PICKER_SLOTS) text.focus();
    });
  });

  /** Sends the picked photos not sent yet, then the post: over `target` ({id, ifRevision}), or as a new one. */
  async function send(target) {
    for (const photo of photos) {
      if (photo.image || photo.uploadId) continue;
      photo.uploadId = (await uploadImage(rpc, photo.file, (fraction) => { photo.bar.value = fraction; })).uploadId;
    }
    const images = photos.map((photo) => (photo.image ? { imageId: photo.image.id } : { uploadId: photo.uploadId }));
    return target
      ? rpc.call('diary.update', { ...target, text: text.value, images })
      : rpc.call('diary.create', { text: text.value, images });
  }

  /** Saves what was typed: over `target` ({id, ifRevision}), or as a new post. */
  async function submit(target) {
    if (busy) return;
    busy = true;
    save.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      await reading;
      const saved = await send(target).catch((failure) => {
        if (failure.data?.kind !== 'upload') throw failure;
        // The satchel was started again since the photos were sent: what it held of them is gone. Once more.
        for (const photo of photos) delete photo.uploadId;
        return send(target);
      });
      dialog.close('saved');
      done(saved, Boolean(target));
    } catch (failure) {
      if (failure.data?.kind === 'upload') { // gone again: the next Save sends the files anew
        for (const photo of photos) delete photo.uploadId;
      }
      if (target && failure.data?.kind !== 'upload' && (failure.reason === 'revisionConflict' || failure.reason === 'notFound')) {
        showError(error, null);
        await conflicted().catch((problem) => showError(error, problem));
      } else {
        showError(error, failure);
        text.focus();
      }
    } finally {
      busy = false;
      save.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (conflict.open) return; // a choice is waiting
    submit(base ? { id: base.id, ifRevision: base.revision } : null);
  });

  renderPhotos();
  const closed = openDialog(form, { label: title, className: 'moment-sheet' }).finally(() => forget(photos));
  const dialog = form.closest('dialog');
  // Escape, too, asks before dropping what was typed.
  dialog.addEventListener('cancel', (event) => { event.preventDefault(); leave(); });
  const mine = {
    id: existing?.id,
    async notice() {
      if (!base || busy || conflict.open) return;
      const now = await rpc.call('diary.get', { id: base.id }).catch((failure) => (failure.reason === 'notFound' ? null : undefined));
      if (now === undefined || busy || (now && now.revision <= base.revision)) return;
      conflict.show(now);
      save.hidden = true;
    },
  };
  opened(mine);
  return closed;
}
