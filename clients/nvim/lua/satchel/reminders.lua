-- Reminders: one a line, `[ ]` or `[x]`, the memo under its reminder when it has text. `o`/`O` add below or
-- above and start editing; what is typed becomes the title; <CR> in insert mode is Return (the next
-- reminder); leaving insert mode ends editing, and an empty reminder disappears (the server decides).
local satchel = require('satchel')
local rpc = require('satchel.rpc')
local buffer = require('satchel.buffer')
local i18n = require('satchel.i18n')
local notify = require('satchel.notify')

local M = {}
local NAME = 'satchel://reminders'
local ns = vim.api.nvim_create_namespace('satchel_reminders')

-- Each buffer line's reminder: id, title and revision as drawn (memo lines carry their reminder's id and
-- `memo = true`).
local rows = {}
-- bufnr -> {undo = {...}, redo = {...}}: the titles renamed here ({id, before, after}), for u and <C-r>.
local renames = {}
local quitting = false -- Neovim is quitting (leave_all): a clash cannot be shown any more

local PREFIX = { [true] = '[x] ', [false] = '[ ] ' }

local function typing()
  return vim.api.nvim_get_mode().mode:sub(1, 1) == 'i'
end

-- Draws the list as the server has it, synchronously: keys typed meanwhile stay in the typeahead and land
-- in the line the cursor is put on (a fast typist's "Milk<CR>Bread" gives two reminders). `from_change`: a
-- refresh for a change made elsewhere, which never replaces a title being typed.
local function render(bufnr, focus, insert, from_change)
  -- Every page: a list longer than one page is drawn whole.
  local err, result = rpc.request_sync('reminders.list', { limit = 500 })
  if err then
    return satchel.fail(err)
  end
  local cursor = result.nextCursor
  while cursor ~= nil and cursor ~= vim.NIL do
    local page_err, page = rpc.request_sync('reminders.list', { limit = 500, cursor = cursor })
    if page_err then
      return satchel.fail(page_err)
    end
    vim.list_extend(result.items, page.items)
    cursor = page.nextCursor
  end
  if from_change and (typing() or vim.bo[bufnr].modified) then
    return
  end
  local lines, map = {}, {}
  for _, reminder in ipairs(result.items) do
    table.insert(lines, PREFIX[reminder.completed] .. reminder.title)
    table.insert(map, { id = reminder.id, completed = reminder.completed, title = reminder.title,
      revision = reminder.revision })
    if reminder.memoVisible and reminder.memo ~= vim.NIL and reminder.memo ~= '' then
      table.insert(lines, '    ' .. reminder.memo:gsub('\n', ' '))
      table.insert(map, { id = reminder.id, memo = true })
    end
  end
  rows[bufnr] = map
  buffer.set_lines(bufnr, lines, vim.tbl_map(function(row)
    return row.id
  end, map))
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  for index, row in ipairs(map) do
    if row.completed then
      vim.api.nvim_buf_add_highlight(bufnr, ns, 'SatchelDone', index - 1, 0, -1)
    elseif row.memo then
      vim.api.nvim_buf_add_highlight(bufnr, ns, 'SatchelMemo', index - 1, 0, -1)
    end
  end
  if #map == 0 then
    vim.api.nvim_buf_set_extmark(bufnr, ns, 0, 0, { virt_text = { { i18n.t('no_reminders'), 'SatchelHint' } } })
  end
  if focus and vim.api.nvim_get_current_buf() == bufnr then
    for index, row in ipairs(map) do
      if row.id == focus and not row.memo then
        vim.api.nvim_win_set_cursor(0, { index, #lines[index] })
        if insert then
          vim.cmd('startinsert!')
        end
      end
    end
  end
  vim.b[bufnr].satchel_editing = result.editingId ~= vim.NIL and result.editingId or nil
end

local function row_at(bufnr, line)
  local map = rows[bufnr] or {}
  return map[line]
end

local function current_row(bufnr)
  return row_at(bufnr, vim.api.nvim_win_get_cursor(0)[1])
end

local function title_of(line)
  return (line:gsub('^%[[ x]%] ?', ''))
end

-- Whether the buffer still has the lines it was drawn with (only titles edited): lines added or deleted by
-- hand would pair titles with the wrong reminders, so nothing is saved then.
local function intact(bufnr)
  local map = rows[bufnr] or {}
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  if #map == 0 then
    return #lines == 1
  end
  if #lines ~= #map then
    return false
  end
  for index, row in ipairs(map) do
    if not row.memo and not lines[index]:match('^%[[ x]%]') then
      return false
    end
  end
  return true
end

local function refuse_structure()
  notify('Satchel: ' .. i18n.t('reminders_structure'), vim.log.levels.ERROR)
end

-- Another editor changed this reminder since it was drawn here: nothing is overwritten. Theirs is shown
-- beside the list, the buffer keeps what was typed (modified), and the next save (:w, or Insert mode left
-- again) puts it over theirs, as a note's second :w does; leaving the list to read theirs saves nothing.
-- While Neovim quits there is no next save: what was typed is kept as a reminder of its own, after theirs.
local function clash(bufnr, row, typed)
  if quitting then
    local err = rpc.request_sync('reminders.add', { title = typed, afterId = row.id })
    if err then
      satchel.fail(err)
    end
    return false
  end
  local err, theirs = rpc.request_sync('reminders.get', { id = row.id })
  if err then
    satchel.fail(err)
    return false
  end
  row.title, row.revision = theirs.title, theirs.revision
  vim.b[bufnr].satchel_editing = nil
  local lines = { PREFIX[theirs.completed] .. theirs.title }
  if theirs.memo ~= vim.NIL and theirs.memo ~= '' then
    table.insert(lines, '    ' .. theirs.memo:gsub('\n', ' '))
  end
  buffer.show_beside(NAME .. '/' .. theirs.id .. '/theirs', lines)
  notify('Satchel: ' .. i18n.t('reminder_conflict', theirs.revision), vim.log.levels.WARN)
  return false
end

-- Every title typed since the last drawing goes to the server, with the revision it was drawn at (editing
-- goes on). Answers false, keeping the buffer as it is, when one is refused, changed elsewhere meanwhile
-- (then theirs is shown), or the lines no longer match the reminders. A rename is kept for `u`.
local function save_titles(bufnr)
  if not intact(bufnr) then
    refuse_structure()
    return false
  end
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for index, row in ipairs(rows[bufnr] or {}) do
    local title = title_of(lines[index])
    if not row.memo and title ~= row.title then
      local err, saved = rpc.request_sync('reminders.update', { id = row.id, title = title, ifRevision = row.revision })
      if err and err.data and err.data ~= vim.NIL and err.data.reason == 'revisionConflict' then
        return clash(bufnr, row, title)
      elseif err then
        satchel.fail(err)
        return false
      end
      if row.title ~= '' then -- a new reminder's first title is no rename: D deletes it
        renames[bufnr] = { undo = renames[bufnr] and renames[bufnr].undo or {}, redo = {} }
        table.insert(renames[bufnr].undo, { id = row.id, before = row.title, after = title })
      end
      row.title, row.revision = title, saved.revision
    end
  end
  return true
end

local function add(bufnr, above)
  local row = current_row(bufnr)
  local params = vim.empty_dict()
  local map = rows[bufnr] or {}
  if row and not above then
    params = { afterId = row.id }
  elseif row and above then
    local line = vim.api.nvim_win_get_cursor(0)[1]
    local previous
    for index = line - 1, 1, -1 do
      if not map[index].memo then
        previous = map[index]
        break
      end
    end
    if previous then
      params = { afterId = previous.id }
    end
  end
  local err, result = rpc.request_sync('reminders.add', params)
  if err then
    return satchel.fail(err)
  end
  local id = result.reminder.id
  if above and params.afterId == nil and row then
    rpc.request_sync('reminders.move', { id = id, toIndex = 0 })
  end
  render(bufnr, id, true)
end

-- <CR> in insert mode: the title is saved and the next reminder comes right after it, in editing.
local function submit(bufnr)
  local row = current_row(bufnr)
  if not row or row.memo or not save_titles(bufnr) then
    return
  end
  local err, result = rpc.request_sync('reminders.submit', { id = row.id })
  if err then
    return satchel.fail(err)
  end
  local created = result.created ~= vim.NIL and result.created or nil
  render(bufnr, created and created.id or nil, created ~= nil)
end

-- Leaving insert mode ends editing: the title is saved, and a blank reminder is removed by the server.
local function end_editing(bufnr)
  if not save_titles(bufnr) then
    return -- the buffer keeps what was typed; the error says why
  end
  local err = rpc.request_sync('reminders.endEditing', vim.empty_dict())
  if err then
    return satchel.fail(err)
  end
  render(bufnr)
end

local function toggle(bufnr)
  if not save_titles(bufnr) then
    return -- typed titles are saved first; what cannot be saved stays, with the error
  end
  local row = current_row(bufnr)
  if row then
    satchel.call('reminders.toggle', { id = row.id }, function()
      render(bufnr, row.id)
    end)
  end
end

local function delete(bufnr)
  if not save_titles(bufnr) then
    return -- typed titles are saved first; what cannot be saved stays, with the error
  end
  local row = current_row(bufnr)
  if row then
    satchel.call('reminders.delete', { id = row.id }, function()
      render(bufnr)
    end)
  end
end

-- :w: titles changed in normal mode are saved.
local function write(bufnr)
  if save_titles(bufnr) then
    render(bufnr)
  end
end

-- u (`redo`: <C-r>). Typing not saved yet is Vim's to undo (a drawing is not in its history). Otherwise the
-- last rename saved here is taken back, and saved: with the revision drawn, so that a change made
-- elsewhere since is not overwritten. Anything else (adding, x, D) is not undone, and that is said.
local function undo(bufnr, redo)
  if vim.bo[bufnr].modified then
    return vim.cmd(redo and 'normal! \18' or 'normal! u')
  end
  local past = renames[bufnr] or { undo = {}, redo = {} }
  renames[bufnr] = past
  local from, to = past.undo, past.redo
  if redo then
    from, to = to, from
  end
  local rename = table.remove(from)
  if not rename then
    return notify(i18n.t(redo and 'no_redo' or 'no_undo'), vim.log.levels.WARN)
  end
  local now, wanted = rename.after, rename.before
  if redo then
    now, wanted = wanted, now
  end
  local row
  for _, candidate in ipairs(rows[bufnr] or {}) do
    if candidate.id == rename.id and not candidate.memo then
      row = candidate
    end
  end
  if not row or row.title ~= now then
    return notify(i18n.t('undo_stale'), vim.log.levels.WARN)
  end
  local err, saved = rpc.request_sync('reminders.update', { id = row.id, title = wanted, ifRevision = row.revision })
  if err then
    table.insert(from, rename)
    return satchel.fail(err)
  end
  row.title, row.revision = wanted, saved.revision
  table.insert(to, rename)
  render(bufnr, row.id)
end

function M.open(focus)
  local bufnr, new = buffer.view(NAME, 'satchel-reminders', true)
  if new then
    buffer.map(bufnr, 'reminders.add_below', 'o', function()
      add(bufnr, false)
    end, 'Add a reminder below')
    buffer.map(bufnr, 'reminders.add_above', 'O', function()
      add(bufnr, true)
    end, 'Add a reminder above')
    buffer.map(bufnr, 'reminders.next', '<CR>', function()
      submit(bufnr)
    end, 'Return: the next reminder', 'i')
    buffer.map(bufnr, 'reminders.toggle', 'x', function()
      toggle(bufnr)
    end, 'Toggle done')
    buffer.map(bufnr, 'reminders.delete', 'D', function()
      delete(bufnr)
    end, 'Delete the reminder')
    buffer.map(bufnr, 'reminders.delete_line', 'dd', function()
      delete(bufnr)
    end, 'Delete the reminder (as D)')
    buffer.map(bufnr, 'reminders.undo', 'u', function()
      undo(bufnr, false)
    end, 'Undo: the last rename saved here')
    buffer.map(bufnr, 'reminders.redo', '<C-r>', function()
      undo(bufnr, true)
    end, 'Redo the rename undone')
    buffer.map(bufnr, 'reminders.edit', 'i', function()
      local row = current_row(bufnr)
      if row and not row.memo then
        rpc.request_sync('reminders.beginEditing', { id = row.id })
        vim.cmd('startinsert!')
      elseif not row then
        add(bufnr, false)
      end
    end, 'Edit the title')
    -- Every way out of typing a title ends editing as <Esc> does: InsertLeave (<Esc>, and <C-o> before its
    -- one command); <C-c>, which skips InsertLeave, is <Esc> here; leaving the buffer (another window, :q)
    -- or the editor while typing.
    buffer.autocmd('InsertLeave', bufnr, function()
      end_editing(bufnr)
    end)
    vim.keymap.set('i', '<C-c>', '<Esc>', { buffer = bufnr, silent = true, desc = 'End editing, as <Esc>' })
    buffer.autocmd('BufLeave', bufnr, function()
      M.leave(bufnr)
    end)
    buffer.autocmd('BufWriteCmd', bufnr, function()
      write(bufnr)
    end)
    buffer.register(bufnr, { 'reminders' }, function()
      render(bufnr, nil, false, true)
    end, typing)
  end
  render(bufnr, focus)
end

--- The buffer is left (another window, :q, Neovim quitting) while a reminder is being edited: what was
--- typed is saved and editing ends, as <Esc> does.
function M.leave(bufnr)
  if vim.api.nvim_buf_is_loaded(bufnr) and (vim.b[bufnr].satchel_editing or typing()) then
    end_editing(bufnr)
  end
end

--- Before the editor quits: every reminders buffer being edited is left properly.
function M.leave_all()
  quitting = true
  for bufnr in pairs(rows) do
    M.leave(bufnr)
  end
end

--- satchel://reminders/<id> (a search hit): the list, with the cursor on that reminder.
function M.read(bufnr, id)
  vim.schedule(function()
    M.open(id)
    if vim.api.nvim_buf_is_valid(bufnr) then
      vim.api.nvim_buf_delete(bufnr, { force = true })
    end
  end)
end

return M
