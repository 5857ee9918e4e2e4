// @ts-check
// When an item being edited changes elsewhere (another window, another device): the editor first merges the
// other version into what was typed (`text.merge`, the merge sync uses) and, when every field merges clean,
// shows the merged text with what came from elsewhere marked (`mergedNotice`). When both changed the same
// words, it says so in a person's words, shows the other version beside what they typed, and lets them keep
// theirs, take the other or keep both. What was typed is never dropped without the person choosing to.
import { extend, t } from './i18n.js';
import { h } from './ui.js';

extend({
  en: {
    'conflict.changed.note': 'This note was changed somewhere else while you were editing it.',
    'conflict.changed.post': 'This post was changed somewhere else while you were editing it.',
    'conflict.deleted.note': 'This note was deleted somewhere else while you were editing it.',
    'conflict.deleted.post': 'This post was deleted somewhere else while you were editing it.',
    'conflict.changed.photo': 'The caption of this photo was changed somewhere else while you were editing it.',
    'conflict.deleted.photo': 'This photo was deleted somewhere else while you were editing its caption.',
    'conflict.theirs': 'The other version', 'conflict.keepMine': 'Keep mine', 'conflict.takeTheirs': 'Use the other',
    'conflict.keepBoth': 'Keep both', 'conflict.saveAsNew': 'Keep mine as a new one',
    'conflict.empty': '(empty)', 'conflict.discard': 'Discard what you typed?', 'conflict.discardYes': 'Discard',
    'conflict.keepEditing': 'Keep editing',
    'merged.note': 'Merged with a change made elsewhere to this note. What came from there is marked.',
    'merged.post': 'Merged with a change made elsewhere to this post. What came from there is marked.',
    'merged.view': 'The merged text', 'merged.dismiss': 'Dismiss', 'merged.photos': 'Photos from the other version',
  },
  ru: {
    'conflict.changed.note': 'Пока вы редактировали эту заметку, её изменили в другом месте.',
    'conflict.changed.post': 'Пока вы редактировали этот пост, его изменили в другом месте.',
    'conflict.deleted.note': 'Пока вы редактировали эту заметку, её удалили в другом месте.',
    'conflict.deleted.post': 'Пока вы редактировали этот пост, его удалили в другом месте.',
    'conflict.changed.photo': 'Пока вы редактировали подпись к этому фото, её изменили в другом месте.',
    'conflict.deleted.photo': 'Пока вы редактировали подпись к этому фото, фото удалили в другом месте.',
    'conflict.theirs': 'Другая версия', 'conflict.keepMine': 'Оставить мою', 'conflict.takeTheirs': 'Взять другую',
    'conflict.keepBoth': 'Оставить обе', 'conflict.saveAsNew': 'Сохранить мою как новую',
    'conflict.empty': '(пусто)', 'conflict.discard': 'Отменить введённое?', 'conflict.discardYes': 'Отменить',
    'conflict.keepEditing': 'Продолжить',
    'merged.note': 'Изменение этой заметки, сделанное в другом месте, объединено с вашим. Пришедшее оттуда выделено.',
    'merged.post': 'Изменение этого поста, сделанное в другом месте, объединено с вашим. Пришедшее оттуда выделено.',
    'merged.view': 'Объединённый текст', 'merged.dismiss': 'Скрыть', 'merged.photos': 'Фото из другой версии',
  },
  ja: {
    'conflict.changed.note': '編集中に、このノートが別の場所で変更されました。',
    'conflict.changed.post': '編集中に、この投稿が別の場所で変更されました。',
    'conflict.deleted.note': '編集中に、このノートが別の場所で削除されました。',
    'conflict.deleted.post': '編集中に、この投稿が別の場所で削除されました。',
    'conflict.changed.photo': '編集中に、この写真のキャプションが別の場所で変更されました。',
    'conflict.deleted.photo': 'キャプションの編集中に、この写真が別の場所で削除されました。',
    'conflict.theirs': 'もう一方の版', 'conflict.keepMine': '自分の版を残す', 'conflict.takeTheirs': 'もう一方を使う',
    'conflict.keepBoth': '両方残す', 'conflict.saveAsNew': '自分の版を新しく保存',
    'conflict.empty': '（空）', 'conflict.discard': '入力した内容を破棄しますか？', 'conflict.discardYes': '破棄',
    'conflict.keepEditing': '編集を続ける',
    'merged.note': '別の場所でのこのノートの変更を、あなたの編集と統合しました。向こうから来た部分に印を付けています。',
    'merged.post': '別の場所でのこの投稿の変更を、あなたの編集と統合しました。向こうから来た部分に印を付けています。',
    'merged.view': '統合後のテキスト', 'merged.dismiss': '閉じる', 'merged.photos': 'もう一方の版の写真',
  },
});

/**
 * The panel an editor shows when its item changed elsewhere. `kind` is 'note', 'post' or 'photo';
 * `describe(version)` draws the other version (read-only); `choices` are `{keepMine, takeTheirs, keepBoth}`,
 * each an async function. `show(theirs)` opens it on the other version (`null`: the item was deleted there); `hide()`
 * closes it. While it is open the editor's own Save waits for a choice (`open`).
 */
export function conflictPanel(kind, describe, choices) {
  const message = h('p', { class: 'conflict-message' });
  const theirsBox = h('div', { class: 'conflict-theirs', role: 'group' });
  const buttons = {
    keepMine: h('button', { type: 'button', class: 'primary conflict-keep-mine', onclick: () => run(choices.keepMine) }),
    takeTheirs: h('button', { type: 'button', class: 'conflict-take-theirs', onclick: () => run(choices.takeTheirs) }),
    keepBoth: h('button', { type: 'button', class: 'conflict-keep-both', onclick: () => run(choices.keepBoth) }),
  };
  const element = h('section', { class: 'conflict', 'aria-live': 'assertive', hidden: true },
    message, theirsBox, h('div', { class: 'conflict-actions' }, buttons.takeTheirs, buttons.keepBoth, buttons.keepMine));
  let theirs;
  let busy = false;

  async function run(choice) {
    if (busy) return;
    busy = true;
    Object.values(buttons).forEach((button) => { button.disabled = true; });
    try {
      await choice(theirs);
    } finally {
      busy = false;
      Object.values(buttons).forEach((button) => { button.disabled = false; });
    }
  }

  function render() {
    const deleted = theirs === null;
    message.textContent = t(`conflict.${deleted ? 'deleted' : 'changed'}.${kind}`);
    theirsBox.setAttribute('aria-label', t('conflict.theirs'));
    theirsBox.replaceChildren(...(deleted ? [] : [h('h4', {}, t('conflict.theirs')), describe(theirs)]));
    theirsBox.hidden = deleted;
    buttons.keepMine.textContent = deleted ? t('conflict.saveAsNew') : t('conflict.keepMine');
    buttons.takeTheirs.textContent = t('conflict.takeTheirs');
    buttons.keepBoth.textContent = t('conflict.keepBoth');
    buttons.takeTheirs.hidden = deleted;
    buttons.keepBoth.hidden = deleted;
  }

  return {
    element,
    get open() { return !element.hidden; },
    show(version) {
      theirs = version;
      render();
      element.hidden = false;
      element.scrollIntoView({ block: 'nearest' });
    },
    hide() { element.hidden = true; },
    translate() { if (!element.hidden) render(); },
  };
}

/** The text of a version as the panel shows it: `(empty)` for none. */
export function versionText(text) {
  return text && text.trim() ? text : t('conflict.empty');
}

/**
 * Merges each field's two edits three-way, as sync does (`text.merge`): `fields` maps a name to
 * `{base, ours, theirs}`. Resolves to each name's `{text, segments}` when every field merges clean, or to
 * `null` when one clashes (both changed the same words) or cannot be merged (the server refused it).
 * @param {import('./rpc.js').Rpc} rpc
 * @param {Record<string, {base: string, ours: string, theirs: string}>} fields
 * @returns {Promise<Record<string, {text: string, segments: {text: string, from: string}[]}> | null>}
 */
export async function mergeFields(rpc, fields) {
  const names = Object.keys(fields);
  try {
    const merged = await Promise.all(names.map((name) => {
      const { base, ours, theirs } = fields[name];
      // Nothing to merge when one side is the base (or both agree): no call, the answer is known.
      if (ours === theirs || theirs === base) return { text: ours, clean: true, segments: [{ text: ours, from: 'ours' }] };
      return rpc.call('text.merge', { base, ours, theirs });
    }));
    if (!merged.every((result) => result.clean)) return null;
    return Object.fromEntries(names.map((name, index) => [name, { text: merged[index].text, segments: merged[index].segments }]));
  } catch {
    return null; // the texts cannot be merged (too long for the server, the connection lost): the choice
  }
}

/**
 * A field other than text (a colour, a deadline, the photos), merged three-way as a whole: the side that
 * changed it since `base` wins; both changed it differently is a clash (`null`). `same` compares two values.
 * @template T
 * @param {T} base
 * @param {T} ours
 * @param {T} theirs
 * @param {(a: T, b: T) => boolean} same
 * @returns {{value: T, theirs: boolean} | null}
 */
export function mergeValue(base, ours, theirs, same) {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours, theirs: false };
  if (same(ours, base)) return { value: theirs, theirs: true };
  return null;
}

/**
 * Where a caret at `caret` in `ours` is in the merged text its `segments` spell: after the same character the
 * person typed it after. Text inserted elsewhere right at the caret goes after it; text deleted elsewhere
 * around it leaves it where the deletion was.
 * @param {string} ours
 * @param {{text: string, from: string}[]} segments
 * @param {number} caret
 */
export function caretAfterMerge(ours, segments, caret) {
  let inOurs = 0; // how far `ours` is walked
  let inMerged = 0;
  for (const { text, from } of segments) {
    if (from === 'theirs') { // not in what was typed
      inMerged += text.length;
      continue;
    }
    // The segment's characters in order in `ours`; those of `ours` between them were removed elsewhere.
    let at = inOurs;
    let index = 0;
    let mapped = null;
    for (; index < text.length; index += 1) {
      while (at < ours.length && ours[at] !== text[index]) at += 1;
      if (at >= ours.length) break;
      if (mapped === null && caret <= at) mapped = inMerged + index;
      at += 1;
    }
    if (index < text.length) { // not found in what was typed (it should be): the caret keeps its place
      inMerged += text.length;
      continue;
    }
    if (mapped !== null) return mapped;
    if (caret <= at) return inMerged + text.length;
    inOurs = at;
    inMerged += text.length;
  }
  return inMerged;
}

/**
 * Puts `text` (merged from what `field` holds and `segments`) into `field`, the caret and selection where
 * they were relative to what the person typed, the field still focused when it was.
 * @param {HTMLInputElement | HTMLTextAreaElement} field
 * @param {string} text
 * @param {{text: string, from: string}[]} segments
 */
export function putMerged(field, text, segments) {
  const ours = field.value;
  if (ours === text) return;
  const { selectionStart, selectionEnd, selectionDirection } = field;
  field.value = text;
  if (document.activeElement === field && selectionStart !== null && selectionEnd !== null) {
    field.setSelectionRange(caretAfterMerge(ours, segments, selectionStart), caretAfterMerge(ours, segments, selectionEnd),
      selectionDirection ?? undefined);
  }
}

/** The merged text as nodes, what came from elsewhere (`from: "theirs"`) in <mark>. */
export function markedText(segments) {
  return segments.map(({ text, from }) => (from === 'theirs' ? h('mark', { class: 'merged-theirs' }, text) : text));
}

/**
 * The notice an editor shows below what is typed when a change made elsewhere was merged into it: a line in
 * the person's words (announced politely), the merged text with what came from there marked (a text field
 * cannot mark its own text), and Dismiss. `show(parts)` opens it on `parts` (nodes `describe` drew); `hide()`
 * closes it.
 * @param {'note' | 'post'} kind
 */
export function mergedNotice(kind) {
  const message = h('p', { class: 'merged-message', role: 'status', 'aria-live': 'polite' });
  const view = h('div', { class: 'merged-view', role: 'group', tabindex: '0' }); // scrolls: reached by keyboard too
  const dismiss = h('button', { type: 'button', class: 'merged-dismiss', onclick: () => hide(true) });
  const element = h('section', { class: 'merged', hidden: true }, h('div', { class: 'merged-top' }, message, dismiss), view);
  let returnFocus = null;
  function render() {
    message.textContent = t(`merged.${kind}`);
    view.setAttribute('aria-label', t('merged.view'));
    dismiss.textContent = t('merged.dismiss');
  }
  function hide(byPerson = false) {
    const had = element.contains(document.activeElement);
    element.hidden = true;
    message.textContent = '';
    if (byPerson && had) returnFocus?.focus();
  }
  return {
    element,
    get open() { return !element.hidden; },
    /**
     * @param {Node[]} parts the merged version, drawn by the editor
     * @param {HTMLElement} [focusAfter] where Dismiss leaves the focus
     */
    show(parts, focusAfter) {
      returnFocus = focusAfter ?? null;
      view.replaceChildren(...parts);
      element.hidden = false;
      message.textContent = '';
      render(); // set after the region is shown, so that it is announced
    },
    hide,
    translate() { if (!element.hidden) render(); },
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * What marks a copy kept by Keep both, as sync marks its conflict copies: this device's name (`sync.status`'s
 * `deviceName`) and the time now in the page's local time, "laptop, 27 Nov 19:20" (the server's shape: the
 * month in English, whatever the page's language, as the copies sync makes on every device).
 * @param {import('./rpc.js').Rpc} rpc
 * @param {Date} [now]
 */
export async function copyLabel(rpc, now = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  const when = `${now.getDate()} ${MONTHS[now.getMonth()]} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
  const name = await rpc.call('sync.status').then((status) => status.deviceName, () => '');
  return name ? `${name}, ${when}` : when;
}

/** The characters of `text` as a person counts them (the server's limits count these). */
function characters(text) {
  return [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((part) => part.segment);
}

/**
 * `text — label` within `limit` characters, the text giving up its end, as the server marks its copies; a
 * blank text is the label alone.
 * @param {string} text
 * @param {string} label
 * @param {number} limit
 */
export function markedCopy(text, label, limit) {
  if (!text.trim()) return characters(label).slice(0, limit).join('');
  const mark = ` — ${label}`;
  return characters(text).slice(0, Math.max(0, limit - characters(mark).length)).join('') + mark;
}
