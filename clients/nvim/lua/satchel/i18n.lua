-- The plugin's own words, in the languages the server speaks (the server's messages come translated).
local M = {}

local words = {
  en = {
    end_of_history = 'No more messages: this is the beginning of the chat.',
    delete_notes = 'Delete %d note(s)?',
    conflict = 'The note changed elsewhere (revision %d): theirs is shown beside yours; :w again to keep yours.',
    saved = 'Saved',
    message_prompt = 'Message: ',
    pick = 'Satchel: ',
    no_reminders = 'No Reminders',
    no_notes = 'No notes',
    loading = 'Loading earlier messages…',
    theirs = 'Theirs',
    photos = '%d photo(s)',
    reminders_structure = 'Lines were added or removed by hand: add with o/O, delete with D (u undoes).',
  },
  ru = {
    end_of_history = 'Больше сообщений нет: это начало переписки.',
    delete_notes = 'Удалить заметки (%d)?',
    conflict = 'Заметка изменена в другом месте (версия %d): их вариант показан рядом; :w ещё раз, чтобы оставить свой.',
    saved = 'Сохранено',
    message_prompt = 'Сообщение: ',
    pick = 'Satchel: ',
    no_reminders = 'Нет напоминаний',
    no_notes = 'Нет заметок',
    loading = 'Загрузка сообщений…',
    theirs = 'Их вариант',
    photos = 'фото: %d',
    reminders_structure = 'Строки добавлены или удалены вручную: добавляйте o/O, удаляйте D (u отменит).',
  },
  ja = {
    end_of_history = 'これ以上メッセージはありません（会話の最初です）。',
    delete_notes = '%d 件のノートを削除しますか？',
    conflict = 'ノートは別の場所で変更されました（リビジョン %d）。相手の版を横に表示しています。もう一度 :w で自分の版を保存します。',
    saved = '保存しました',
    message_prompt = 'メッセージ: ',
    pick = 'Satchel: ',
    no_reminders = 'リマインダーなし',
    no_notes = 'ノートなし',
    loading = '以前のメッセージを読み込み中…',
    theirs = '相手の版',
    photos = '写真 %d 枚',
    reminders_structure = '行が手で追加・削除されています。追加は o/O、削除は D（u で元に戻せます）。',
  },
}

local current = 'en'

function M.set(language)
  current = words[language] and language or 'en'
end

function M.t(key, ...)
  local text = words[current][key] or words.en[key] or key
  if select('#', ...) > 0 then
    return text:format(...)
  end
  return text
end

return M
