// @ts-check
// When an item being edited changes elsewhere (another window, another device): the editor says so in a
// person's words, shows the other version beside what they typed, and lets them keep theirs, take the other
// or keep both. What was typed is never dropped without the person choosing to.
import { extend, t } from './i18n.js';
import { h } from './ui.js';

extend({
  en: {
    'conflict.changed.note': 'This note was changed somewhere else while you were editing it.',
    'conflict.changed.post': 'This post was changed somewhere else while you were editing it.',
    'conflict.deleted.note': 'This note was deleted somewhere else while you were editing it.',
    'conflict.deleted.post': 'This post was deleted somewhere else while you were editing it.',
    'conflict.theirs': 'The other version', 'conflict.keepMine': 'Keep mine', 'conflict.takeTheirs': 'Use the other',
    'conflict.keepBoth': 'Keep both', 'conflict.saveAsNew': 'Keep mine as a new one',
    'conflict.empty': '(empty)', 'conflict.discard': 'Discard what you typed?', 'conflict.discardYes': 'Discard',
    'conflict.keepEditing': 'Keep editing',
  },
  ru: {
    'conflict.changed.note': 'Пока вы редактировали эту заметку, её изменили в другом месте.',
    'conflict.changed.post': 'Пока вы редактировали этот пост, его изменили в другом месте.',
    'conflict.deleted.note': 'Пока вы редактировали эту заметку, её удалили в другом месте.',
    'conflict.deleted.post': 'Пока вы редактировали этот пост, его удалили в другом месте.',
    'conflict.theirs': 'Другая версия', 'conflict.keepMine': 'Оставить мою', 'conflict.takeTheirs': 'Взять другую',
    'conflict.keepBoth': 'Оставить обе', 'conflict.saveAsNew': 'Сохранить мою как новую',
    'conflict.empty': '(пусто)', 'conflict.discard': 'Отменить введённое?', 'conflict.discardYes': 'Отменить',
    'conflict.keepEditing': 'Продолжить',
  },
  ja: {
    'conflict.changed.note': '編集中に、このノートが別の場所で変更されました。',
    'conflict.changed.post': '編集中に、この投稿が別の場所で変更されました。',
    'conflict.deleted.note': '編集中に、このノートが別の場所で削除されました。',
    'conflict.deleted.post': '編集中に、この投稿が別の場所で削除されました。',
    'conflict.theirs': 'もう一方の版', 'conflict.keepMine': '自分の版を残す', 'conflict.takeTheirs': 'もう一方を使う',
    'conflict.keepBoth': '両方残す', 'conflict.saveAsNew': '自分の版を新しく保存',
    'conflict.empty': '（空）', 'conflict.discard': '入力した内容を破棄しますか？', 'conflict.discardYes': '破棄',
    'conflict.keepEditing': '編集を続ける',
  },
});

/**
 * The panel an editor shows when its item changed elsewhere. `kind` is 'note' or 'post'; `describe(version)`
 * draws the other version (read-only); `choices` are `{keepMine, takeTheirs, keepBoth}`, each an async
 * function. `show(theirs)` opens it on the other version (`null`: the item was deleted there); `hide()`
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
