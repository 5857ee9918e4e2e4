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
    exporting = 'Satchel: exporting… %s',
    importing = 'Satchel: importing… %s',
    exported = 'Satchel: exported %s items to %s',
    imported = 'Satchel: imported %s items from %s',
    replace_all = 'Replace everything in Satchel with %s?',
    file_exists = 'Satchel: %s exists (add ! to replace it: :Satchel! export)',
    still_saving = 'Satchel: %s is still being saved; you will be told how it went.',
    save_queued = 'Satchel: the last :w is still under way; this one follows it.',
    late_failed = 'Satchel: %s failed after all: %s',
    late_done = 'Satchel: %s went through after all.',
    list_edits = 'Satchel: the list takes moves (dd, p) and deletions; %d line(s) typed or changed by hand were not saved (<CR> opens a note to rename it, :Satchel note new adds one; u undoes).',
    no_folder = 'Satchel: there is no folder %s',
    no_file = 'Satchel: there is no file %s',
    not_a_file = 'Satchel: %s is not a file',
    bad_mode = 'Satchel: unknown import mode \'%s\' (merge or replace)',
    unknown_buffer = 'Satchel: there is no %s (satchel://notes, reminders, diary, messages, board, or one item\'s satchel://notes/<id>)',
    no_opener = 'Satchel: no program to open images (%s): set open_cmd in setup()',
    keys_title = 'Keys of this buffer:',
    delete_item = 'Delete %s?',
    bad_setup = 'Satchel: setup() was not applied: %s',
    merged = 'The note changed elsewhere (revision %d): those changes are merged into yours and highlighted; :w saves both, u takes them out.',
    device_name = 'Satchel: this device is called %s (a conflict copy made from its version says so)',
    device_named = 'Satchel: this device is now called %s',
    device_name_empty = 'Satchel: a device needs a name: :Satchel device-name {name}',
    device_name_long = 'Satchel: a device\'s name is at most %d characters',
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
    exporting = 'Satchel: экспорт… %s',
    importing = 'Satchel: импорт… %s',
    exported = 'Satchel: экспортировано объектов: %s, в %s',
    imported = 'Satchel: импортировано объектов: %s, из %s',
    replace_all = 'Заменить всё в Satchel содержимым %s?',
    file_exists = 'Satchel: %s уже существует (добавьте !, чтобы заменить: :Satchel! export)',
    still_saving = 'Satchel: %s ещё сохраняется; результат будет сообщён.',
    save_queued = 'Satchel: предыдущее :w ещё выполняется; это последует за ним.',
    late_failed = 'Satchel: %s всё-таки не выполнено: %s',
    late_done = 'Satchel: %s всё-таки выполнено.',
    list_edits = 'Satchel: список принимает перемещения (dd, p) и удаления; строки, набранные или изменённые вручную (%d), не сохранены (<CR> откроет заметку для переименования, :Satchel note new добавит новую; u отменит).',
    no_folder = 'Satchel: папки %s нет',
    no_file = 'Satchel: файла %s нет',
    not_a_file = 'Satchel: %s — не файл',
    bad_mode = 'Satchel: неизвестный режим импорта \'%s\' (merge или replace)',
    unknown_buffer = 'Satchel: %s не существует (satchel://notes, reminders, diary, messages, board или один объект: satchel://notes/<id>)',
    no_opener = 'Satchel: нет программы для открытия изображений (%s): задайте open_cmd в setup()',
    keys_title = 'Клавиши этого буфера:',
    delete_item = 'Удалить %s?',
    bad_setup = 'Satchel: setup() не применён: %s',
    merged = 'Заметка изменена в другом месте (версия %d): эти изменения добавлены к вашим и подсвечены; :w сохранит и то и другое, u уберёт их.',
    device_name = 'Satchel: это устройство называется %s (так подписана копия, сделанная из его версии при конфликте)',
    device_named = 'Satchel: теперь это устройство называется %s',
    device_name_empty = 'Satchel: устройству нужно имя: :Satchel device-name {имя}',
    device_name_long = 'Satchel: имя устройства — не длиннее %d символов',
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
    exporting = 'Satchel: エクスポート中… %s',
    importing = 'Satchel: インポート中… %s',
    exported = 'Satchel: %s 件をエクスポートしました（%s）',
    imported = 'Satchel: %s 件をインポートしました（%s）',
    replace_all = 'Satchel の内容をすべて %s で置き換えますか？',
    file_exists = 'Satchel: %s は既にあります（置き換えるには ! を付けてください: :Satchel! export）',
    still_saving = 'Satchel: %s はまだ保存中です。結果はあとでお知らせします。',
    save_queued = 'Satchel: 前の :w がまだ処理中です。この保存はその後に行います。',
    late_failed = 'Satchel: %s は結局失敗しました: %s',
    late_done = 'Satchel: %s は結局完了しました。',
    list_edits = 'Satchel: 一覧では移動（dd、p）と削除だけができます。手で入力・変更した %d 行は保存されていません（<CR> でノートを開いて名前を変更、:Satchel note new で追加。u で元に戻せます）。',
    no_folder = 'Satchel: フォルダー %s はありません',
    no_file = 'Satchel: ファイル %s はありません',
    not_a_file = 'Satchel: %s はファイルではありません',
    bad_mode = 'Satchel: 不明なインポートモード \'%s\'（merge または replace）',
    unknown_buffer = 'Satchel: %s はありません（satchel://notes、reminders、diary、messages、board、または項目ひとつの satchel://notes/<id>）',
    no_opener = 'Satchel: 画像を開くプログラムがありません（%s）。setup() で open_cmd を設定してください',
    keys_title = 'このバッファーのキー:',
    delete_item = '%s を削除しますか？',
    bad_setup = 'Satchel: setup() は適用されませんでした: %s',
    merged = 'ノートは別の場所で変更されました（リビジョン %d）。その変更をあなたの編集に取り込み、ハイライトしました。:w で両方を保存、u で取り消せます。',
    device_name = 'Satchel: このデバイスの名前は %s です（このデバイスの版から作られた競合コピーにこの名前が付きます）',
    device_named = 'Satchel: このデバイスの名前を %s にしました',
    device_name_empty = 'Satchel: デバイスには名前が必要です: :Satchel device-name {名前}',
    device_name_long = 'Satchel: デバイス名は %d 文字までです',
  },
}

local current = 'en'

local separators = { en = ',', ru = '\194\160', ja = ',' }

--- A whole number with its thousands grouped as the language writes them: 1,234 (en, ja), 1 234 (ru).
function M.number(n)
  local digits = tostring(math.floor(n))
  local grouped = ''
  while #digits > 3 do
    grouped = separators[current] .. digits:sub(-3) .. grouped
    digits = digits:sub(1, -4)
  end
  return digits .. grouped
end

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
