// @ts-check
// ENotes: text notes in the user's order with exact HSB colours and deadlines, and photo notes in a grid; both
// read a page at a time as the person scrolls.
import { textOn } from './colour.js';
import { dragRows, keyboardRows } from './dragrows.js';
import { extend, t } from './i18n.js';
import { icon } from './icons.js';
import { editNote as openEditor, formatDeadline } from './note-editor.js';
import { photoError } from './photo-errors.js';
import { viewPhoto as openViewer } from './photo-viewer.js';
import {
  coalesce, errorLine, h, moreButton, openDialog, pagedList, showError, storedImage, twinOf, uploadImage,
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
    for (const tile of picked) tile.querySelector('.dismiss')?.setAttribute('aria-label', t('photo.dismiss', { name: tile.dataset.file }));
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

  // The tiles of picked photos being sent, and of those refused (each saying why), after the grid's photos.
  const picked = [];

  function render() {
    const { items, last } = lists[mode];
    const empty = (key) => (last ? [h('li', { class: 'empty' }, t(key))] : []); // said once the list is read
    // The item holding the focus keeps it, drawn again.
    const focused = section.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement) : null;
    if (mode === 'text') notesList.replaceChildren(...(items.length ? items.map(noteRow) : empty('noNotes')));
    else photoGrid.replaceChildren(...(items.length ? items.map(photoCell) : picked.length ? [] : empty('noPhotos')), ...picked);
    if (focused && !focused.isConnected) twinOf(focused)?.focus({ preventScroll: true });
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
      else {
        const before = picked.find((tile) => tile.parentNode === photoGrid) ?? null; // picked ones stay last
        for (const [index, photo] of added.entries()) photoGrid.insertBefore(photoCell(photo, from + index), before);
      }
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

  let editing = null; // the note editor that is open, told when its note changes elsewhere
  function editNote(note) {
    let mine = null;
    openEditor(note, {
      rpc,
      indexOf: (id) => lists.text.items.findIndex((each) => each.id === id),
      titled: (title) => lists.text.items.some((each) => each.title === title),
      saved: refresh,
      freeLimit,
      opened: (editor) => { editing = mine = editor; },
    }).then(() => { if (editing === mine) editing = null; });
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
    const img = storedImage(photo.image, { alt: photo.caption || '' });
    return h('li', { class: 'photo card', draggable: 'true', dataset: { id: photo.id } },
      h('button', { type: 'button', class: 'photo-open', 'aria-label': photo.caption || t('photoNumber', { n: index + 1 }), onclick: () => viewPhoto(photo) },
        img, photo.caption ? h('span', { class: 'caption' }, photo.caption) : null));
  }

  // Photos picked together are sent one after the other, each added as it arrives: a photo the server refuses
  // stays as a tile naming it and why, and the ones after it are added all the same.
  let adding = Promise.resolve();
  function addPhotos(files) {
    const batch = [...files].map((file) => {
      const bar = h('progress', { max: 1, value: 0, 'aria-label': `${t('uploading')}: ${file.name}` });
      return { file, bar, tile: h('li', { class: 'photo card uploading', dataset: { file: file.name } }, bar) };
    });
    photoInput.value = '';
    picked.push(...batch.map(({ tile }) => tile));
    render();
    adding = adding.then(() => send(batch));
    return adding;
  }

  async function send(batch) {
    for (const [at, { file, bar, tile }] of batch.entries()) {
      let upload = null;
      try {
        ({ uploadId: upload } = await uploadImage(rpc, file, (fraction) => { bar.value = fraction; }));
        await rpc.call('photos.add', { image: { uploadId: upload } });
        unpick(tile);
      } catch (error) {
        if (upload) rpc.call('images.discardUpload', { uploadId: upload }).catch(() => {}); // what it held, let go
        if (error.reason === 'freeLimitReached') { // no photo after it fits either: the notice says why
          for (const rest of batch.slice(at)) unpick(rest.tile);
          freeLimit(error);
          break;
        }
        refused(tile, photoError(error, file.name));
      }
    }
    await refresh();
  }

  /** The tile of a picked photo says why it was not added, until the person dismisses it. */
  function refused(tile, error) {
    const line = errorLine();
    tile.className = 'photo card refused';
    tile.replaceChildren(h('button', {
      type: 'button', class: 'dismiss', 'aria-label': t('photo.dismiss', { name: tile.dataset.file }),
      onclick: () => { unpick(tile); render(); newButton.focus(); },
    }, h('span', { 'aria-hidden': 'true' }, '×')), line);
    showError(line, error);
  }

  function unpick(tile) {
    if (picked.includes(tile)) picked.splice(picked.indexOf(tile), 1);
    tile.remove();
  }

  let viewing = null; // the photo viewer that is open, told when its photo note changes elsewhere
  function viewPhoto(photo) {
    let mine = null;
    openViewer(photo, {
      rpc,
      list: lists.photos,
      loadMore: () => loadMore('photos'),
      saved: refresh,
      freeLimit,
      opened: (viewer) => { viewing = mine = viewer; },
    }).then(() => { if (viewing === mine) viewing = null; });
  }

  setMode('text');
  return {
    show: refresh,
    refresh,
    translate,
    changed(event) {
      if (['notes', 'photos'].includes(event.domain)) refresh();
      if (event.domain === 'notes' && editing && event.id === editing.id) editing.notice();
      if (event.domain === 'photos' && viewing && event.id === viewing.id) viewing.notice();
    },
    resync() {
      refresh();
      editing?.notice(); // its note may be among the skipped changes: shown beside what was typed, if so
      viewing?.notice();
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
