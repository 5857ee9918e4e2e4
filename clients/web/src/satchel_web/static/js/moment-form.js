// @ts-check
// Moments' sheet: writing a post or editing one, text and up to four photos; when the post changes elsewhere
// while it is open, the other version merged into what was typed, or, when both changed the same words,
// beside it (conflict.js). A stored photo shown in the sheet is held as the page shows it (the display size),
// so that one deleted elsewhere with its post is saved again when the person keeps theirs.
import {
  conflictPanel, copyLabel, markedCopy, markedText, mergedNotice, mergeFields, mergeValue, putMerged, versionText,
} from './conflict.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { imageIndex, photoError } from './photo-errors.js';
import { confirmDialog, errorLine, h, imageURL, openDialog, showError, storedImage, uploadImage } from './ui.js';

// The form shows the picker while the post has fewer photos than the original allowed (the server decides).
const PICKER_SLOTS = 4;
/** A post's text holds at most this many characters (the server's rule). */
const TEXT_LIMIT = 100_000;

/**
 * The creation form (`existing` null) or the edit form of `existing`: text and up to four photos.
 * @param {any} existing
 * @param {{rpc: import('./rpc.js').Rpc, saved: (post: any, edited: boolean) => void,
 *   opened: (form: {id?: string, notice: () => Promise<void>}) => void}} context
 */
export function editPost(existing, { rpc, saved: done, opened }) {
  let base = existing; // the version the person started from: their Save is checked against it
  // Each photo is {image} (already stored) or {file, preview, bar, uploadId?} (picked: sent as a file when
  // the post is saved, its progress on its tile; once sent, its upload is reused by a second Save). A photo
  // the server refused has `problem`, said on its tile; one the browser cannot draw (a HEIC), `undrawable`.
  let photos = existing ? existing.images.map((image) => ({ image })) : [];
  let reading = Promise.resolve();
  let busy = false;
  let merging = Promise.resolve(); // a change from elsewhere being merged in: a Save waits for it
  /** @type {Map<string, Promise<Blob | null>>} stored photo's id → the photo as shown, while the sheet is open */
  const copies = new Map();
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
    // A post has no title: the copy's text is marked as sync marks its copies ("… — laptop, 27 Nov 19:20")
    // only when it says the same as the other version's, the one thing that would not tell them apart.
    async keepBoth(theirs) {
      const same = text.value.trim() === (theirs.text ?? '').trim();
      return submit(null, same ? markedCopy(text.value, await copyLabel(rpc), TEXT_LIMIT) : undefined);
    },
  });
  const merged = mergedNotice('post');
  const form = h('form', { class: 'moment-form', novalidate: true },
    h('div', { class: 'sheet-bar' }, cancel, h('h2', {}, title), save),
    conflict.element, text, merged.element, photoList, error);
  function settled() {
    conflict.hide();
    save.hidden = false;
  }
  function showConflict(theirs) {
    merged.hide();
    conflict.show(theirs);
    save.hidden = true;
  }
  /** The post as it is now elsewhere (`null`: deleted there; `undefined`: it could not be read). */
  function current() {
    return rpc.call('diary.get', { id: base.id }).catch((failure) => (failure.reason === 'notFound' ? null : undefined));
  }
  /**
   * `theirs`, the post as it is now elsewhere (`null`: deleted there), meets what was typed: merged into it
   * when the text merges clean and the photos were changed on one side only (what came from there marked
   * below), else the choice between the two.
   */
  function arrived(theirs) {
    const done = merging.then(() => (theirs ? mergeIn(theirs) : showConflict(null)));
    merging = done.catch(() => {});
    return done;
  }
  async function mergeIn(theirs) {
    if (conflict.open || theirs.revision <= base.revision) return; // a choice waits, or merged in already
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const ours = text.value;
      const pictures = mergeValue(photoKey(base.images.map((image) => ({ image }))), photoKey(photos),
        photoKey(theirs.images.map((image) => ({ image }))), (a, b) => a === b);
      const texts = pictures && await mergeFields(rpc, { text: { base: base.text ?? '', ours, theirs: theirs.text ?? '' } });
      if (!form.isConnected) return;
      if (!texts) {
        showConflict(theirs);
        return;
      }
      if (text.value !== ours) continue; // typed meanwhile: again
      putMerged(text, texts.text.text, texts.text.segments);
      if (pictures.theirs) {
        forget(photos);
        photos = theirs.images.map((image) => ({ image }));
        renderPhotos();
      }
      base = theirs; // what the merged text is saved over: the next Save meets no conflict
      settled();
      merged.show([h('div', { class: 'conflict-version' },
        h('p', { class: 'conflict-text merged-text' }, ...markedText(texts.text.segments)),
        pictures.theirs && theirs.images.length
          ? h('span', { class: 'moment-thumbs conflict-photos merged-photos', role: 'group', 'aria-label': t('merged.photos') },
            theirs.images.slice(0, 4).map((image) => storedImage(image, { class: 'moment-thumb' })))
          : null)], text);
      return;
    }
    showConflict(theirs); // the person kept typing through every merge: the choice, with nothing lost
  }

  /**
   * Lets the browser free the picked files' previews (each holds its file until revoked) and, unless the post
   * took them, the satchel what it holds of the files sent.
   */
  function forget(list, sent = false) {
    for (const photo of list) {
      if (photo.preview) URL.revokeObjectURL(photo.preview);
      if (photo.uploadId && !sent) rpc.call('images.discardUpload', { uploadId: photo.uploadId }).catch(() => {});
    }
  }

  /** How the person knows a photo: its file's name, or its place in the post. */
  const photoName = (photo) => photo.file?.name ?? t('moments.photo', { n: photos.indexOf(photo) + 1, count: photos.length });

  /**
   * A picked photo as the browser draws it; one it cannot draw (a HEIC, which the server's sizes show once the
   * post is saved), a picture's outline and the file's name, never a broken image with its text spilling out.
   */
  function preview(photo, alt) {
    const placeholder = () => h('span', { class: 'moment-undrawable', role: 'img', 'aria-label': alt },
      icon('photo'), h('span', { class: 'moment-file-name', 'aria-hidden': 'true' }, photo.file.name));
    if (photo.undrawable) return placeholder();
    const img = h('img', { src: photo.preview, decoding: 'async', alt });
    img.addEventListener('error', () => {
      photo.undrawable = true;
      img.replaceWith(placeholder());
    }, { once: true });
    return img;
  }

  /** Holds each stored photo the sheet shows (as the browser has it, from its cache once shown). */
  function holdCopies() {
    for (const { image } of photos) {
      if (!image || copies.has(image.id)) continue;
      copies.set(image.id, fetch(imageURL(image.id, 'display')).then((answer) => (answer.ok ? answer.blob() : null), () => null));
    }
  }

  /**
   * The stored photos, gone from the server with a post deleted elsewhere (or taken out of it there), become
   * photos to send again from what the sheet holds of them; one it could not hold is left out. Resolves to
   * whether any changed.
   */
  async function fromCopies() {
    const stored = photos.filter((photo) => photo.image);
    if (!stored.length) return false;
    const held = await Promise.all(stored.map((photo) => copies.get(photo.image.id) ?? null));
    photos = photos.flatMap((photo) => {
      if (!photo.image) return [photo];
      const file = held[stored.indexOf(photo)];
      if (!file) return [];
      const name = t('moments.photo', { n: photos.indexOf(photo) + 1, count: photos.length });
      const copy = new File([file], name, { type: file.type });
      const bar = h('progress', { max: 1, value: 0, class: 'moment-upload', 'aria-label': `${t('uploading')}: ${name}` });
      return [{ file: copy, preview: URL.createObjectURL(copy), bar }];
    });
    renderPhotos();
    return true;
  }

  function renderPhotos() {
    holdCopies();
    photoList.replaceChildren(...photos.map((photo, index) => {
      const alt = t('moments.photo', { n: index + 1, count: photos.length });
      const problem = photo.problem ? errorLine() : null;
      showError(problem, photo.problem ?? null);
      return h('li', { class: `moment-picked-photo${photo.problem ? ' refused' : ''}` },
        h('div', { class: 'moment-picked-frame' },
          photo.image ? storedImage(photo.image, { alt }) : preview(photo, alt),
          photo.image ? null : photo.bar,
          h('button', {
            type: 'button', class: 'moment-remove-photo', 'aria-label': t('moments.removePhoto', { n: index + 1 }),
            onclick: () => { forget(photos.splice(index, 1)); renderPhotos(); picker.focus(); },
          }, h('span', { 'aria-hidden': 'true' }, '×'))),
        problem);
    }));
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

  /**
   * Sends the picked photos not sent yet, then the post (`words`, else what was typed): over `target` ({id,
   * ifRevision}), or as a new one.
   */
  async function send(target, words = text.value) {
    for (const photo of photos) {
      if (photo.image || photo.uploadId) continue;
      photo.uploadId = (await uploadImage(rpc, photo.file, (fraction) => { photo.bar.value = fraction; })
        .catch((failure) => { throw Object.assign(failure, { photo }); })).uploadId;
    }
    const images = photos.map((photo) => (photo.image ? { imageId: photo.image.id } : { uploadId: photo.uploadId }));
    return target
      ? rpc.call('diary.update', { ...target, text: words, images })
      : rpc.call('diary.create', { text: words, images });
  }

  /** Saves what was typed (or `words`): over `target` ({id, ifRevision}), or as a new post. */
  async function submit(target, words = undefined) {
    if (busy) return;
    busy = true;
    save.disabled = true;
    form.setAttribute('aria-busy', 'true');
    if (photos.some((photo) => photo.problem)) {
      for (const photo of photos) delete photo.problem;
      renderPhotos();
    }
    try {
      await reading;
      const saved = await send(target, words).catch(async (failure) => {
        // A stored photo is gone (deleted elsewhere with its post): sent again as the sheet holds it.
        if (failure.reason === 'notFound' && failure.data?.kind === 'image' && await fromCopies()) return send(target, words);
        if (failure.data?.kind !== 'upload') throw failure;
        // The satchel was started again since the photos were sent: what it held of them is gone. Once more.
        for (const photo of photos) delete photo.uploadId;
        return send(target, words);
      });
      dialog.close('saved');
      done(saved, Boolean(target));
    } catch (failure) {
      if (failure.data?.kind === 'upload') { // gone again: the next Save sends the files anew
        for (const photo of photos) delete photo.uploadId;
      }
      const mine = failure.data?.kind === 'upload' || failure.data?.kind === 'image'; // about the photos, not the post
      if (target && !mine && (failure.reason === 'revisionConflict' || failure.reason === 'notFound')) {
        showError(error, null);
        const theirs = await current();
        busy = false;
        // Saved over what it started from: merged in if it can be (the person saves again, having seen it).
        if (theirs === undefined) showError(error, failure);
        else if (target.ifRevision === base.revision) await arrived(theirs);
        else showConflict(theirs);
      } else {
        // A photo refused is named on its tile, in the person's words; anything else, under the photos.
        const photo = failure.photo ?? photos[imageIndex(failure)];
        if (photo) photo.problem = photoError(failure, photoName(photo));
        if (photo) renderPhotos();
        showError(error, photo ? null : failure);
        text.focus();
      }
    } finally {
      busy = false;
      save.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (conflict.open) return; // a choice is waiting
    await merging; // a change from elsewhere is being merged in: saved over it
    if (conflict.open) return;
    submit(base ? { id: base.id, ifRevision: base.revision } : null);
  });

  renderPhotos();
  const closed = openDialog(form, { label: title, className: 'moment-sheet' }).then((how) => {
    forget(photos, how === 'saved');
    return how;
  });
  const dialog = form.closest('dialog');
  // Escape, too, asks before dropping what was typed.
  dialog.addEventListener('cancel', (event) => { event.preventDefault(); leave(); });
  const mine = {
    id: existing?.id,
    async notice() {
      if (!base || busy || conflict.open) return;
      const now = await current();
      if (now === undefined || busy || conflict.open || (now && now.revision <= base.revision)) return;
      await arrived(now);
    },
  };
  opened(mine);
  return closed;
}
