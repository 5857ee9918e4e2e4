// @ts-check
// A note's editor: title, content, deadline and exact colour; when the note changes elsewhere while it is
// open, the other version merged into what was typed, or, when both changed the same words, beside it
// (conflict.js).
import { colourPicker, DEFAULT_COLOUR } from './colour.js';
import {
  conflictPanel, copyLabel, markedCopy, markedText, mergedNotice, mergeFields, mergeValue, putMerged, versionText,
} from './conflict.js';
import { stamp } from './dates.js';
import { t } from './i18n.js';
import { confirmDialog, errorLine, h, openDialog, showError } from './ui.js';

function localInputValue(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A deadline, written as every date of the page is. */
export const formatDeadline = stamp;

/** A note's title holds at most this many characters (the server's rule). */
const TITLE_LIMIT = 500;

const sameColour = (a, b) => ['hue', 'saturation', 'brightness'].every((part) => a[part] === b[part]);

/**
 * The editor of `note` (`null`: a new one), in a dialog; resolves when it closes.
 * @param {any} note
 * @param {{rpc: import('./rpc.js').Rpc, indexOf: (id: string) => number, titled: (title: string) => boolean,
 *   saved: () => unknown, freeLimit: (error: any) => void,
 *   opened: (editor: {id?: string, notice: () => Promise<void>}) => void}} context
 */
export async function editNote(note, { rpc, indexOf, titled, saved, freeLimit, opened }) {
  let base = note; // the version the person started from: their Save is checked against it
  let saving = false;
  let merging = Promise.resolve(); // a change from elsewhere being merged in: a Save waits for it
  const error = errorLine();
  const title = h('input', { type: 'text', name: 'title', value: note?.title ?? '', 'aria-label': t('title'), placeholder: t('title') });
  const content = h('textarea', { name: 'content', rows: 3, 'aria-label': t('content'), placeholder: t('content') });
  content.value = note?.content ?? '';
  const grow = () => { content.style.height = 'auto'; content.style.height = `${content.scrollHeight + 2}px`; };
  content.addEventListener('input', grow);
  const deadline = h('input', { type: 'datetime-local', name: 'deadline', value: localInputValue(note?.deadline), 'aria-label': t('deadline') });
  const clear = h('button', { type: 'button', onclick: () => { deadline.value = ''; } }, t('clearDeadline'));
  const picker = colourPicker(note?.color ?? DEFAULT_COLOUR);
  const fields = () => ({
    title: title.value,
    content: content.value,
    color: picker.value(),
    deadline: deadline.value ? new Date(deadline.value).toISOString() : null,
  });
  const show = (version) => {
    title.value = version.title;
    content.value = version.content;
    deadline.value = localInputValue(version.deadline);
    picker.set(version.color);
    grow();
  };
  // Whether the fields hold something the person typed or picked since `base` (or, for a new note, at all);
  // white space alone is not.
  const typed = () => {
    const now = fields();
    const from = base ?? { title: '', content: '', deadline: null, color: DEFAULT_COLOUR };
    return now.title.trim() !== from.title.trim() || now.content.trim() !== from.content.trim()
      || localInputValue(now.deadline) !== localInputValue(from.deadline)
      || ['hue', 'saturation', 'brightness'].some((part) => now.color[part] !== from.color[part]);
  };
  const close = (why) => form.closest('dialog').close(why);
  const conflict = conflictPanel('note', (version) => h('div', { class: 'conflict-version' },
    h('strong', { class: 'conflict-title' }, versionText(version.title)),
    h('p', { class: 'conflict-text' }, versionText(version.content)),
    version.deadline ? h('p', { class: 'muted small' }, t('due', { date: formatDeadline(version.deadline) })) : null), {
    async keepMine(theirs) {
      await save(theirs ? { id: theirs.id, ifRevision: theirs.revision } : null);
    },
    async takeTheirs(theirs) {
      base = theirs;
      show(theirs);
      settled();
    },
    // The copy is told from the other by its title, as sync's copies are: "Plan — laptop, 27 Nov 19:20".
    async keepBoth(theirs) {
      const at = indexOf(theirs.id);
      const label = await copyLabel(rpc);
      let copyTitle = markedCopy(title.value, label, TITLE_LIMIT);
      for (let n = 2; titled(copyTitle) || copyTitle === theirs.title; n += 1) {
        copyTitle = markedCopy(title.value, `${label} (${n})`, TITLE_LIMIT);
      }
      await save(null, at >= 0 ? at + 1 : undefined, { title: copyTitle });
    },
  });
  const merged = mergedNotice('note');
  const saveButton = h('button', { type: 'submit', class: 'primary', value: 'save' }, t('save'));
  const cancel = async () => {
    if (typed() && !(await confirmDialog(t('conflict.discard'), t('conflict.discardYes'), t('conflict.keepEditing')))) return;
    close('cancel');
  };
  const form = h('form', { method: 'dialog', class: 'note-editor' },
    h('h3', {}, note ? t('editNote') : t('newNote')),
    conflict.element,
    title, content,
    merged.element,
    h('div', { class: 'field deadline' }, h('span', {}, t('deadline')), deadline, clear),
    picker.element,
    error,
    h('div', { class: 'actions' },
      note ? h('button', { type: 'button', class: 'danger', onclick: () => remove() }, t('delete')) : null,
      h('button', { type: 'button', onclick: cancel }, t('cancel')),
      saveButton));
  function settled() {
    conflict.hide();
    saveButton.hidden = false;
  }
  function conflicted(theirs) {
    merged.hide();
    conflict.show(theirs);
    saveButton.hidden = true;
  }
  /**
   * `theirs`, the note as it is now elsewhere (`null`: deleted there), meets what was typed: merged into it
   * when every field merges clean (what came from there marked below), else the choice between the two.
   */
  function arrived(theirs) {
    const done = merging.then(() => (theirs ? mergeIn(theirs) : conflicted(null)));
    merging = done.catch(() => {});
    return done;
  }
  async function mergeIn(theirs) {
    if (conflict.open || theirs.revision <= base.revision) return; // a choice waits, or merged in already
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const ours = fields();
      const deadlines = mergeValue(localInputValue(base.deadline), localInputValue(ours.deadline),
        localInputValue(theirs.deadline), (a, b) => a === b);
      const colour = mergeValue(base.color, ours.color, theirs.color, sameColour);
      const texts = deadlines && colour && await mergeFields(rpc, {
        title: { base: base.title, ours: ours.title, theirs: theirs.title },
        content: { base: base.content, ours: ours.content, theirs: theirs.content },
      });
      if (!form.isConnected) return;
      if (!texts) {
        conflicted(theirs);
        return;
      }
      if (title.value !== ours.title || content.value !== ours.content) continue; // typed meanwhile: again
      putMerged(title, texts.title.text, texts.title.segments);
      putMerged(content, texts.content.text, texts.content.segments);
      if (deadlines.theirs) deadline.value = localInputValue(theirs.deadline);
      if (colour.theirs) picker.set(theirs.color);
      grow();
      base = theirs; // what the merged text is saved over: the next Save meets no conflict
      settled();
      merged.show([h('div', { class: 'conflict-version' },
        // The title only when something in it came from there; the text always.
        texts.title.segments.some((segment) => segment.from === 'theirs')
          ? h('strong', { class: 'conflict-title merged-title' }, ...markedText(texts.title.segments))
          : null,
        h('p', { class: 'conflict-text merged-text' }, ...markedText(texts.content.segments)),
        deadlines.theirs && theirs.deadline
          ? h('p', { class: 'muted small' }, h('mark', { class: 'merged-theirs' }, t('due', { date: formatDeadline(theirs.deadline) })))
          : null)], content);
      return;
    }
    conflicted(theirs); // the person kept typing through every merge: the choice, with nothing lost
  }
  /** The note as it is now elsewhere (`null`: deleted there). */
  async function current() {
    try {
      return await rpc.call('notes.get', { id: base.id });
    } catch (failure) {
      if (failure.reason === 'notFound') return null;
      throw failure;
    }
  }
  /**
   * Saves what was typed (with `changes` over it): over `target` ({id, ifRevision}), or as a new note (at
   * `atIndex`).
   */
  async function save(target, atIndex, changes = {}) {
    saving = true;
    try {
      if (target) await rpc.call('notes.update', { ...target, ...fields(), ...changes });
      else await rpc.call('notes.create', { ...fields(), ...changes, ...(atIndex === undefined ? {} : { atIndex }) });
      close('saved');
      saved();
    } catch (failure) {
      if (failure.reason === 'revisionConflict' || (failure.reason === 'notFound' && target)) {
        showError(error, null);
        const theirs = await current();
        saving = false;
        // Saved over what it started from: merged in if it can be (the person saves again, having seen it).
        if (target && base && target.ifRevision === base.revision) await arrived(theirs);
        else conflicted(theirs);
      } else {
        if (failure.reason === 'freeLimitReached') freeLimit(failure);
        showError(error, failure);
      }
    } finally {
      saving = false;
    }
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (conflict.open) return; // a choice is waiting
    await merging; // a change from elsewhere is being merged in: saved over it
    if (conflict.open) return;
    save(base ? { id: base.id, ifRevision: base.revision } : null);
  });
  async function remove() {
    if (!(await confirmDialog(t('deleteNote'), t('delete'), t('cancel')))) return;
    try {
      await rpc.call('notes.delete', { id: base.id });
      close('deleted');
      saved();
    } catch (failure) {
      showError(error, failure);
    }
  }
  const closed = openDialog(form, { label: note ? t('editNote') : t('newNote'), item: note && { domain: 'notes', id: note.id } });
  // Escape, too, asks before dropping what was typed.
  form.closest('dialog').addEventListener('cancel', (event) => { event.preventDefault(); cancel(); });
  const mine = {
    id: note?.id,
    // The note changed elsewhere while open: the person sees it at once, not at their next Save.
    async notice() {
      if (!base || saving || conflict.open) return;
      const now = await current().catch(() => undefined);
      if (now === undefined || saving || conflict.open || (now && now.revision <= base.revision)) return;
      await arrived(now);
    },
    translate: () => { conflict.translate(); merged.translate(); },
  };
  opened(mine);
  grow();
  title.focus();
  await closed;
}
