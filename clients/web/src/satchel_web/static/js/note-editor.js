// @ts-check
// A note's editor: title, content, deadline and exact colour; when the note changes elsewhere while it is
// open, the other version beside what was typed (conflict.js).
import { colourPicker, DEFAULT_COLOUR } from './colour.js';
import { conflictPanel, versionText } from './conflict.js';
import { language, t } from './i18n.js';
import { confirmDialog, errorLine, h, openDialog, showError } from './ui.js';

function localInputValue(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatDeadline(iso) {
  return new Date(iso).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The editor of `note` (`null`: a new one), in a dialog; resolves when it closes.
 * @param {any} note
 * @param {{rpc: import('./rpc.js').Rpc, indexOf: (id: string) => number, saved: () => unknown,
 *   freeLimit: (error: any) => void, opened: (editor: {id?: string, notice: () => Promise<void>}) => void}} context
 */
export async function editNote(note, { rpc, indexOf, saved, freeLimit, opened }) {
  let base = note; // the version the person started from: their Save is checked against it
  let saving = false;
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
    async keepBoth(theirs) {
      const at = indexOf(theirs.id);
      await save(null, at >= 0 ? at + 1 : undefined);
    },
  });
  const saveButton = h('button', { type: 'submit', class: 'primary', value: 'save' }, t('save'));
  const cancel = async () => {
    if (typed() && !(await confirmDialog(t('conflict.discard'), t('conflict.discardYes'), t('conflict.keepEditing')))) return;
    close('cancel');
  };
  const form = h('form', { method: 'dialog', class: 'note-editor' },
    h('h3', {}, note ? t('editNote') : t('newNote')),
    conflict.element,
    title, content,
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
    conflict.show(theirs);
    saveButton.hidden = true;
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
  /** Saves what was typed: over `target` ({id, ifRevision}), or as a new note (at `atIndex`). */
  async function save(target, atIndex) {
    saving = true;
    try {
      if (target) await rpc.call('notes.update', { ...target, ...fields() });
      else await rpc.call('notes.create', { ...fields(), ...(atIndex === undefined ? {} : { atIndex }) });
      close('saved');
      saved();
    } catch (failure) {
      if (failure.reason === 'revisionConflict' || (failure.reason === 'notFound' && target)) {
        showError(error, null);
        conflicted(await current());
      } else {
        if (failure.reason === 'freeLimitReached') freeLimit(failure);
        showError(error, failure);
      }
    } finally {
      saving = false;
    }
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (conflict.open) return; // a choice is waiting
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
  const closed = openDialog(form, { label: note ? t('editNote') : t('newNote') });
  // Escape, too, asks before dropping what was typed.
  form.closest('dialog').addEventListener('cancel', (event) => { event.preventDefault(); cancel(); });
  const mine = {
    id: note?.id,
    // The note changed elsewhere while open: the person sees it at once, not at their next Save.
    async notice() {
      if (!base || saving || conflict.open) return;
      const now = await current().catch(() => undefined);
      if (now === undefined || saving || (now && now.revision <= base.revision)) return;
      conflicted(now);
    },
    translate: () => conflict.translate(),
  };
  opened(mine);
  grow();
  title.focus();
  await closed;
}
