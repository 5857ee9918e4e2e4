// @ts-check
// ENotes: text notes in the user's order with exact HSB colours and deadlines, and photo notes in a grid; both
// read a page at a time as the person scrolls.
import { colourPicker, DEFAULT_COLOUR, textOn } from './colour.js';
import { conflictPanel, versionText } from './conflict.js';
import { dragRows, keyboardRows } from './dragrows.js';
import { extend, language, t } from './i18n.js';
import { icon } from './icons.js';
import {
  coalesce, confirmDialog, errorLine, fileToBase64, h, imageURL, moreButton, openDialog, pagedList, showError,
} from './ui.js';

extend({
  en: {
    textNotes: 'Notes', photoNotes: 'Photos', newNote: 'New note', noNotes: 'No notes yet', title: 'Title',
    content: 'Note', deadline: 'Deadline', clearDeadline: 'No deadline', editNote: 'Edit note', addPhoto: 'Add photo',
    noPhotos: 'No photos yet', caption: 'Caption', previous: 'Previous', next: 'Next', moveUp: 'Move up',
    moveDown: 'Move down', deleteNote: 'Delete this note?', deletePhoto: 'Delete this photo?', due: 'Due {date}',
    freeLimit: 'Free edition', reorderHint: 'Drag to reorder, or Alt+Arrow keys', photoNumber: 'Photo {n}',
  },
  ru: {
    textNotes: 'Заметки', photoNotes: 'Фото', newNote: 'Новая заметка', noNotes: 'Заметок пока нет',
    title: 'Название', content: 'Заметка', deadline: 'Крайний срок', clearDeadline: 'Без срока',
    editNote: 'Изменить заметку', addPhoto: 'Добавить фото', noPhotos: 'Фото пока нет', caption: 'Подпись',
    previous: 'Назад', next: 'Вперёд', moveUp: 'Выше', moveDown: 'Ниже', deleteNote: 'Удалить заметку?',
    deletePhoto: 'Удалить фото?', due: 'До {date}', freeLimit: 'Бесплатная версия',
    reorderHint: 'Перетащите или Alt+стрелки', photoNumber: 'Фото {n}',
  },
  ja: {
    textNotes: 'ノート', photoNotes: '写真', newNote: '新しいノート', noNotes: 'ノートはまだありません', title: 'タイトル', content: 'ノート',
    deadline: '期限', clearDeadline: '期限なし', editNote: 'ノートを編集', addPhoto: '写真を追加', noPhotos: '写真はまだありません',
    caption: 'キャプション', previous: '前へ', next: '次へ', moveUp: '上へ', moveDown: '下へ', deleteNote: 'このノートを削除しますか？',
    deletePhoto: 'この写真を削除しますか？', due: '期限 {date}', freeLimit: '無料版', reorderHint: 'ドラッグまたは Alt+矢印キーで並べ替え',
    photoNumber: '写真 {n}',
  },
});

function localInputValue(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function formatDeadline(iso) {
  return new Date(iso).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** The items of `list` can be dragged, or moved with Alt+ArrowUp/Down; `move(id, toIndex, keepFocus)` saves. */
function reorderable(list, move) {
  const known = new WeakMap(); // li → its row, one object per li, so rows compare as themselves
  const rowFor = (li) => {
    if (!known.has(li)) known.set(li, { id: li.dataset.id, li });
    return known.get(li);
  };
  const rowOf = (element) => {
    const li = element?.closest?.('[data-id]');
    return li && list.contains(li) ? rowFor(li) : null;
  };
  const order = () => [...list.querySelectorAll(':scope > [data-id]')].map(rowFor);
  dragRows({ list, rowOf, order, moveTo: (row, to) => move(row.id, to) });
  keyboardRows({ list, rowOf, order, moveTo: (row, to) => move(row.id, to, true) });
}

/**
 * Mounts the screen in `section`.
 * @param {HTMLElement} section
 * @param {import('./types.js').Context} context
 * @returns {import('./types.js').Screen}
 */
export function mount(section, { rpc }) {
  let mode = 'text';
  const listError = errorLine();
  const heading = h('h2');
  const newButton = h('button', { type: 'button', class: 'icon-button primary', onclick: () => (mode === 'text' ? editNote(null) : photoInput.click()) }, '+');
  const photoInput = h('input', { type: 'file', accept: 'image/*', multiple: true, hidden: true, onchange: () => addPhotos(photoInput.files) });
  const modeButtons = {
    text: h('button', { type: 'button', onclick: () => setMode('text') }),
    photos: h('button', { type: 'button', onclick: () => setMode('photos') }),
  };
  const notesList = h('ul', { class: 'list notes-list', 'aria-describedby': 'notes-hint' });
  const photoGrid = h('ul', { class: 'list photo-grid' });
  const hint = h('p', { class: 'muted small', id: 'notes-hint' });
  // What is loaded of each list, and the button at its end that loads the next page.
  const lists = { text: pagedList(rpc, 'notes.list'), photos: pagedList(rpc, 'photos.list') };
  const more = { text: moreButton(() => loadMore('text')), photos: moreButton(() => loadMore('photos')) };
  section.append(
    h('div', { class: 'toolbar' }, heading, h('div', { class: 'segmented', role: 'group' }, modeButtons.text, modeButtons.photos), newButton, photoInput),
    listError, notesList, more.text.element, photoGrid, more.photos.element, hint);

  function translate() {
    heading.textContent = t('notes');
    modeButtons.text.textContent = t('textNotes');
    modeButtons.photos.textContent = t('photoNotes');
    newButton.setAttribute('aria-label', mode === 'text' ? t('newNote') : t('addPhoto'));
    hint.textContent = t('reorderHint');
    for (const button of Object.values(more)) button.element.textContent = t('loadMore');
    render();
  }

  function setMode(next) {
    mode = next;
    for (const [name, button] of Object.entries(modeButtons)) button.setAttribute('aria-pressed', String(name === mode));
    notesList.hidden = mode !== 'text';
    photoGrid.hidden = mode !== 'photos';
    translate();
    refresh();
  }

  // A refresh reads again as many items as are loaded, from the start: what is shown, not the whole list.
  const refresh = coalesce(async () => {
    try {
      await lists[mode].reload();
      showError(listError, null);
      render();
    } catch (error) {
      showError(listError, error);
    }
  });

  function render() {
    const { items, last } = lists[mode];
    const empty = (key) => (last ? [h('li', { class: 'empty' }, t(key))] : []); // said once the list is read
    if (mode === 'text') notesList.replaceChildren(...(items.length ? items.map(noteRow) : empty('noNotes')));
    else photoGrid.replaceChildren(...(items.length ? items.map(photoCell) : empty('noPhotos')));
    for (const [name, button] of Object.entries(more)) button.show(name === mode && lists[name].more);
    hint.hidden = lists[mode].items.length < 2; // nothing to reorder under an empty (or one-item) list
  }

  /** The next page of `which` list, added below what is shown. */
  async function loadMore(which) {
    try {
      const added = await lists[which].next();
      const from = lists[which].items.length - added.length;
      showError(listError, null);
      if (which === 'text') notesList.append(...added.map(noteRow));
      else photoGrid.append(...added.map((photo, index) => photoCell(photo, from + index)));
    } catch (error) {
      showError(listError, error);
    }
    more[which].show(which === mode && lists[which].more);
  }

  function noteRow(note) {
    return h('li', { class: 'note card', draggable: 'true', dataset: { id: note.id }, style: { '--note': note.color.hex, '--note-text': textOn(note.color.hex) } },
      h('span', { class: 'swatch', 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'note-open', onclick: () => editNote(note) },
        h('span', { class: 'note-title' }, note.title || note.content.split('\n')[0]),
        note.deadline ? h('span', { class: 'note-deadline' }, t('due', { date: formatDeadline(note.deadline) })) : null));
  }

  async function move(method, id, toIndex, keepFocus) {
    try {
      await rpc.call(method, { id, toIndex });
      await refresh();
      if (keepFocus) /** @type {HTMLElement | null} */ (section.querySelector(`[data-id="${id}"] button`))?.focus();
    } catch (error) {
      showError(listError, error);
    }
  }
  reorderable(notesList, (id, to, focus) => move('notes.move', id, to, focus));
  reorderable(photoGrid, (id, to, focus) => move('photos.move', id, to, focus));

  let editing = null; // the note editor that is open: {id, notice()}, told when its note changes elsewhere

  async function editNote(note) {
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
        const at = lists.text.items.findIndex((each) => each.id === theirs.id);
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
        refresh();
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
        refresh();
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
    editing = mine;
    grow();
    title.focus();
    await closed;
    if (editing === mine) editing = null;
  }

  function freeLimit(error) {
    const form = h('form', { method: 'dialog', class: 'free-limit' },
      icon('lock'),
      h('h3', {}, t('freeLimit')),
      h('p', { role: 'alert' }, error.message),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('close'))));
    openDialog(form, { label: t('freeLimit') });
  }

  function photoCell(photo, index) {
    const img = h('img', { alt: photo.caption || '', loading: 'lazy' });
    imageURL(rpc, photo.image.id).then((url) => { img.src = url; }).catch(() => {});
    return h('li', { class: 'photo card', draggable: 'true', dataset: { id: photo.id } },
      h('button', { type: 'button', class: 'photo-open', 'aria-label': photo.caption || t('photoNumber', { n: index + 1 }), onclick: () => viewPhoto(photo) },
        img, photo.caption ? h('span', { class: 'caption' }, photo.caption) : null));
  }

  async function addPhotos(files) {
    for (const file of files) {
      try {
        await rpc.call('photos.add', { image: { data: await fileToBase64(file) } });
      } catch (error) {
        if (error.reason === 'freeLimitReached') freeLimit(error);
        showError(listError, error);
        break;
      }
    }
    photoInput.value = '';
    refresh();
  }

  async function viewPhoto(photo) {
    let shown = photo; // the photo on screen, by itself: a live refresh may reorder the list
    const img = h('img', { class: 'viewer-image', alt: '' });
    const caption = h('input', { type: 'text', name: 'caption', 'aria-label': t('caption'), placeholder: t('caption') });
    const error = errorLine();
    const form = h('form', { method: 'dialog', class: 'viewer' },
      img, caption, error,
      h('div', { class: 'actions' },
        h('button', { type: 'button', 'aria-label': t('previous'), onclick: () => go(-1) }, '‹'),
        h('button', { type: 'button', 'aria-label': t('next'), onclick: () => go(1) }, '›'),
        h('button', { type: 'button', class: 'danger', onclick: () => remove() }, t('delete')),
        h('button', { type: 'button', autofocus: true, onclick: () => form.closest('dialog').close() }, t('close')),
        h('button', { type: 'submit', class: 'primary' }, t('save'))));
    function show() {
      const photo = shown;
      caption.value = photo.caption ?? '';
      img.alt = photo.caption || '';
      imageURL(rpc, photo.image.id).then((url) => { img.src = url; });
      showError(error, null);
    }
    // Previous and next go round the list once it is all loaded; before that, next at the end loads more.
    async function go(step) {
      const list = lists.photos;
      const at = list.items.findIndex((each) => each.id === shown.id);
      if (at < 0) return; // a photo opened from search, further down than what is loaded
      if (at + step >= list.items.length && list.more) await loadMore('photos');
      const { items } = list;
      shown = (list.more ? items[at + step] : items[(at + step + items.length) % items.length]) ?? shown;
      show();
    }
    form.addEventListener('keydown', (event) => {
      if (event.target === caption) return;
      if (event.key === 'ArrowLeft') go(-1);
      if (event.key === 'ArrowRight') go(1);
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const update = (photo) => rpc.call('photos.update', { id: photo.id, caption: caption.value || null, ifRevision: photo.revision });
      try {
        try {
          shown = await update(shown);
        } catch (failure) {
          if (failure.reason !== 'revisionConflict') throw failure;
          // Changed elsewhere: moved only (the caption as it was) saves over it; a new caption is shown in
          // the error first, and the next Save keeps the one typed here.
          const current = await rpc.call('photos.get', { id: shown.id });
          const before = shown.caption;
          shown = current;
          if ((current.caption ?? null) !== (before ?? null)) throw failure;
          shown = await update(current);
        }
        form.closest('dialog').close();
        refresh();
      } catch (failure) {
        showError(error, failure);
      }
    });
    async function remove() {
      if (!(await confirmDialog(t('deletePhoto'), t('delete'), t('cancel')))) return;
      try {
        await rpc.call('photos.delete', { id: shown.id });
        form.closest('dialog').close();
        refresh();
      } catch (failure) {
        showError(error, failure);
      }
    }
    show();
    await openDialog(form, { label: t('photoNotes'), className: 'wide' });
  }

  setMode('text');
  return {
    show: refresh,
    refresh,
    translate,
    changed(event) {
      if (['notes', 'photos'].includes(event.domain)) refresh();
      if (event.domain === 'notes' && editing && event.id === editing.id) editing.notice();
    },
    // The item as it is now, from the server: it opens however far down the list it is, loaded or not.
    async open(id, domain) {
      if ((domain === 'photos') !== (mode === 'photos')) setMode(domain === 'photos' ? 'photos' : 'text');
      try {
        if (domain === 'photos') viewPhoto(await rpc.call('photos.get', { id }));
        else editNote(await rpc.call('notes.get', { id }));
      } catch (error) {
        showError(listError, error);
      }
    },
  };
}
