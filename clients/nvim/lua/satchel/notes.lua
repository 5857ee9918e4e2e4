-- ENotes: the list (title, deadline, the note's colour; reorder by moving lines; delete lines and :w), and
-- each note as a buffer satchel://notes/<id>: the title, a blank line, the content; :w saves with ifRevision.
-- A change made elsewhere to a note with unsaved changes is merged into them (text.merge, three-way: the
-- base is the text the buffer last read or wrote); where both changed the same words, theirs is shown in a
-- split instead.
local satchel = require('satchel')
local rpc = require('satchel.rpc')
local buffer = require('satchel.buffer')
local i18n = require('satchel.i18n')
local highlight = require('satchel.highlight')
local notify = require('satchel.notify')

local M = {}
local LIST = 'satchel://notes'
local drawn = {} -- bufnr -> {[id] = the line drawn for it}, to tell moved lines from edited ones
local ns = vim.api.nvim_create_namespace('satchel_notes')
local merged_ns = vim.api.nvim_create_namespace('satchel_merged') -- the words a merge brought in

-- A list line: the id (concealed), then what a person reads.
local function line_of(note)
  local deadline = note.deadline ~= vim.NIL and note.deadline and ('  ⏰ ' .. note.deadline:sub(1, 16):gsub('T', ' ') .. ' UTC') or ''
  local title = note.title ~= '' and note.title or (note.content:match('^[^\n]*') or '')
  return note.id .. ' ' .. title .. deadline
end

local function id_of(line)
  return line:match('^(%S+) ')
end


local function render_list(bufnr)
  satchel.all('notes.list', {}, function(notes)
    if not vim.api.nvim_buf_is_loaded(bufnr) or vim.bo[bufnr].modified then
      return -- unsaved moves or deletions in the list are the user's: they stay until :w
    end
    local lines = vim.tbl_map(line_of, notes)
    local ids = vim.tbl_map(function(note)
      return note.id
    end, notes)
    buffer.set_lines(bufnr, lines, ids)
    vim.b[bufnr].satchel_ids = ids
    drawn[bufnr] = {}
    for index, id in ipairs(ids) do
      drawn[bufnr][id] = lines[index]
    end
    vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
    for index, note in ipairs(notes) do
      vim.api.nvim_buf_add_highlight(bufnr, ns, highlight.note(note.color.hex), index - 1, #note.id + 1, -1)
    end
    if #notes == 0 then
      vim.api.nvim_buf_set_extmark(bufnr, ns, 0, 0, { virt_text = { { i18n.t('no_notes'), 'SatchelHint' } } })
    end
  end)
end

-- :w on the list: lines deleted are notes to delete (after a confirmation), the order of the others is the
-- order to keep. A line typed or changed by hand is neither: then nothing is saved, the buffer stays as it
-- is (modified), and a message says how to rename or add a note.
local function write_list(bufnr)
  local before = vim.b[bufnr].satchel_ids or {}
  local order, edited = {}, 0
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local id = id_of(line)
    if id and (drawn[bufnr] or {})[id] == line then
      if not vim.tbl_contains(order, id) then
        table.insert(order, id)
      end
    elseif vim.trim(line) ~= '' then
      edited = edited + 1
    end
  end
  if edited > 0 then
    return notify(i18n.t('list_edits', edited), vim.log.levels.ERROR)
  end
  local removed = vim.tbl_filter(function(id)
    return not vim.tbl_contains(order, id)
  end, before)
  if #removed > 0 and vim.fn.confirm(i18n.t('delete_notes', #removed), '&Yes\n&No', 2) ~= 1 then
    return
  end
  for _, id in ipairs(removed) do
    local err = rpc.request_sync('notes.delete', { id = id })
    if err then
      return satchel.fail(err)
    end
  end
  local current = vim.tbl_filter(function(id)
    return vim.tbl_contains(order, id)
  end, before)
  for index, id in ipairs(order) do
    if current[index] ~= id then
      local err = rpc.request_sync('notes.move', { id = id, toIndex = index - 1 })
      if err then
        return satchel.fail(err)
      end
      for at, other in ipairs(current) do
        if other == id then
          table.remove(current, at)
          break
        end
      end
      table.insert(current, index, id)
    end
  end
  vim.bo[bufnr].modified = false
  render_list(bufnr)
end

function M.open_list()
  local bufnr, new = buffer.view(LIST, 'satchel-notes', true)
  vim.cmd([[syntax match SatchelId /^\S\+ / conceal]])
  if new then
    buffer.autocmd('BufWriteCmd', bufnr, function()
      write_list(bufnr)
    end)
    -- The ids are concealed while the list is in a window, and only then.
    buffer.autocmd('BufWinEnter', bufnr, function()
      vim.wo.conceallevel, vim.wo.concealcursor = 3, 'nvic'
    end)
    buffer.autocmd('BufWinLeave', bufnr, function()
      vim.wo.conceallevel, vim.wo.concealcursor = 0, ''
    end)
    buffer.map(bufnr, 'notes.open', '<CR>', function()
      local id = id_of(vim.api.nvim_get_current_line())
      if id then
        vim.cmd('edit satchel://notes/' .. id)
      end
    end, 'Open the note')
    buffer.register(bufnr, { 'notes' }, render_list)
  end
  vim.wo.conceallevel, vim.wo.concealcursor = 3, 'nvic'
  render_list(bufnr)
end

local function note_lines(note)
  local lines = { note.title, '' }
  vim.list_extend(lines, vim.split(note.content, '\n', { plain = true }))
  return lines
end

-- The first line is the title; the content starts after the blank line that follows it (or right after
-- the title when that line is not blank: nothing typed is dropped).
local function parse(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local title = lines[1] or ''
  local first = (lines[2] == nil or lines[2] == '') and 3 or 2
  return title, table.concat(vim.list_slice(lines, first), '\n')
end

-- The text a note buffer represents, as one string: what is merged.
local function text_of(lines)
  return table.concat(lines, '\n')
end

-- The buffer now holds (or builds on) this version of the note: its revision goes with the next :w, and its
-- text is the base of the next merge.
local function based_on(bufnr, note)
  vim.b[bufnr].satchel_revision = note.revision
  vim.b[bufnr].satchel_base = text_of(note_lines(note))
end

-- Highlights the parts of the merged text that came from the other side (`segments` in order, their texts
-- making up the buffer's text).
local function mark_merged(bufnr, segments)
  vim.api.nvim_buf_clear_namespace(bufnr, merged_ns, 0, -1)
  local row, col = 0, 0
  for _, segment in ipairs(segments) do
    local parts = vim.split(segment.text, '\n', { plain = true })
    local end_row = row + #parts - 1
    local end_col = #parts == 1 and col + #parts[1] or #parts[#parts]
    if segment.from == 'theirs' and segment.text:match('%S') then
      pcall(vim.api.nvim_buf_set_extmark, bufnr, merged_ns, row, col,
        { end_row = end_row, end_col = end_col, hl_group = 'SatchelMerged' })
    end
    row, col = end_row, end_col
  end
end

-- Puts the merged text in the buffer as one undo step, replacing only the lines that differ, so that the
-- cursor (and anything marked) stays on the text it was on. The buffer stays modified: :w writes it.
local function replace_with(bufnr, lines)
  local now = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local hunks = vim.diff(text_of(now) .. '\n', text_of(lines) .. '\n', { result_type = 'indices' })
  vim.api.nvim_buf_call(bufnr, function()
    vim.cmd('let &undolevels = &undolevels') -- an undo step of its own (:help undo-break)
    for index = #hunks, 1, -1 do
      local start, count, from, length = unpack(hunks[index])
      start = count == 0 and start or start - 1 -- a pure insertion comes after line `start`
      vim.api.nvim_buf_set_lines(bufnr, start, start + count, false, vim.list_slice(lines, from, from + length - 1))
    end
  end)
end

local function typing_in(bufnr)
  return vim.api.nvim_get_current_buf() == bufnr and vim.api.nvim_get_mode().mode:match('^[iR]') ~= nil
end

-- Merges `theirs` (the note as saved elsewhere) into the buffer's unsaved text. `done(true)` when it went in
-- cleanly (a colour changed elsewhere brings no text: then only the revision and the base move on), and
-- `done(false)` when both changed the same words: then nothing is touched.
local function merge(bufnr, theirs, done)
  local base = vim.b[bufnr].satchel_base
  if base == nil then
    return done(false)
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local ours = text_of(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false))
  local params = { base = base, ours = ours, theirs = text_of(note_lines(theirs)) }
  rpc.request('text.merge', params, function(err, result)
    if not vim.api.nvim_buf_is_valid(bufnr) then
      return
    end
    if (vim.b[bufnr].satchel_revision or 0) >= theirs.revision then
      return done(true) -- a newer version is in already
    end
    if err or not result.clean then
      return done(false)
    end
    if vim.api.nvim_buf_get_changedtick(bufnr) ~= tick then
      return merge(bufnr, theirs, done) -- typed meanwhile: merged again with that
    end
    if typing_in(bufnr) then -- not in the middle of an insert: when it ends
      return vim.api.nvim_create_autocmd('InsertLeave', { buffer = bufnr, once = true, callback = function()
        vim.schedule(function()
          if vim.api.nvim_buf_is_valid(bufnr) then
            merge(bufnr, theirs, done)
          end
        end)
      end })
    end
    based_on(bufnr, theirs)
    if result.text ~= ours then
      replace_with(bufnr, vim.split(result.text, '\n', { plain = true }))
      mark_merged(bufnr, result.segments)
      notify('Satchel: ' .. i18n.t('merged', theirs.revision), vim.log.levels.INFO)
    end
    done(true)
  end)
end

local write_note

-- The answer to a note's :w, whenever it comes: the buffer learns its id and revision, and is unmodified
-- only if nothing was typed since that :w. A :w made meanwhile follows now, with the new revision.
local function saved(bufnr, id, tick, err, note)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  vim.b[bufnr].satchel_saving = nil
  local again = vim.b[bufnr].satchel_save_again
  vim.b[bufnr].satchel_save_again = nil
  if err then
    if err.data and err.data ~= vim.NIL and err.data.reason == 'revisionConflict' then
      rpc.request('notes.get', { id = id }, function(read_err, theirs)
        if read_err then
          return satchel.fail(err)
        end
        merge(bufnr, theirs, function(clean)
          if clean then
            if vim.api.nvim_buf_get_changedtick(bufnr) == tick then
              write_note(bufnr) -- theirs brought no text: this :w goes on over it
            end
            return -- otherwise theirs is in the buffer with what was typed: the next :w writes both
          end
          buffer.show_beside('satchel://notes/' .. theirs.id .. '/theirs', note_lines(theirs))
          based_on(bufnr, theirs) -- the next :w keeps this version, having seen theirs
          notify('Satchel: ' .. i18n.t('conflict', theirs.revision), vim.log.levels.WARN)
        end)
      end)
      return
    end
    return satchel.fail(err) -- the buffer stays modified: nothing typed is lost
  end
  vim.b[bufnr].satchel_id = note.id
  based_on(bufnr, note)
  vim.api.nvim_buf_clear_namespace(bufnr, merged_ns, 0, -1)
  if not id then
    vim.api.nvim_buf_set_name(bufnr, 'satchel://notes/' .. note.id)
  end
  if vim.api.nvim_buf_get_changedtick(bufnr) == tick then
    vim.bo[bufnr].modified = false
  end
  if again then
    write_note(bufnr)
  end
end

-- :w in a note. The answer is awaited a moment (so :wq works); a server slower than that is not a failure:
-- the write is still on its way, the buffer stays modified, and `saved` takes the answer when it comes.
-- A second :w while one is on its way follows it instead of racing it (and conflicting with itself).
function write_note(bufnr)
  if vim.b[bufnr].satchel_saving then
    vim.b[bufnr].satchel_save_again = true
    return notify(i18n.t('save_queued'), vim.log.levels.INFO)
  end
  local title, content = parse(bufnr)
  local id = vim.b[bufnr].satchel_id
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local method, params = 'notes.create', { title = title, content = content }
  if id then
    method, params = 'notes.update', { id = id, title = title, content = content, ifRevision = vim.b[bufnr].satchel_revision }
  end
  vim.b[bufnr].satchel_saving = true
  local answered = false
  local sent, why = pcall(rpc.request, method, params, function(err, note)
    answered = true
    saved(bufnr, id, tick, err, note)
  end)
  if not sent then
    vim.b[bufnr].satchel_saving = nil
    error(why, 0)
  end
  if not vim.wait(M.write_wait, function()
    return answered
  end, 10) then
    notify(i18n.t('still_saving', vim.fn.bufname(bufnr)), vim.log.levels.INFO)
  end
end

--- How long :w waits for the server before letting the save finish in the background (ms).
M.write_wait = 2000

local function watch_note(bufnr)
  if vim.b[bufnr].satchel_view then
    return
  end
  vim.b[bufnr].satchel_view = true
  vim.bo[bufnr].filetype = 'markdown'
  buffer.autocmd('BufWriteCmd', bufnr, function()
    write_note(bufnr)
  end)
  -- Any change among the notes (a burst may carry several) makes the note read again: drawn again when
  -- nothing is typed, merged into what is typed otherwise (a clash waits for :w, which shows theirs).
  local function reload()
    local id = vim.b[bufnr].satchel_id
    if not id then
      return
    end
    rpc.request('notes.get', { id = id }, function(err, note)
      if err or not vim.api.nvim_buf_is_valid(bufnr) or note.revision == vim.b[bufnr].satchel_revision then
        return
      end
      if not vim.bo[bufnr].modified then
        buffer.set_lines(bufnr, note_lines(note))
        based_on(bufnr, note)
        vim.api.nvim_buf_clear_namespace(bufnr, merged_ns, 0, -1)
      elseif not vim.b[bufnr].satchel_saving then -- a :w on its way: its answer decides
        merge(bufnr, note, function() end)
      end
    end)
  end
  buffer.register(bufnr, { 'notes' }, reload, nil, reload)
end

--- Loads satchel://notes/<id> into `bufnr`.
function M.read(bufnr, id)
  local err, note = rpc.request_sync('notes.get', { id = id })
  if err then
    return satchel.fail(err)
  end
  vim.bo[bufnr].buftype = 'acwrite'
  vim.bo[bufnr].swapfile = false
  buffer.set_lines(bufnr, note_lines(note))
  vim.b[bufnr].satchel_id = note.id
  based_on(bufnr, note)
  watch_note(bufnr)
end

--- :Satchel note new: an empty note buffer; :w creates it.
function M.new()
  local draft = vim.fn.bufnr('^satchel://notes/new$')
  if draft ~= -1 then
    return vim.api.nvim_set_current_buf(draft) -- the draft already begun
  end
  local bufnr = buffer.new_buffer()
  vim.api.nvim_buf_set_name(bufnr, 'satchel://notes/new')
  vim.bo[bufnr].buftype = 'acwrite'
  vim.bo[bufnr].swapfile = false
  watch_note(bufnr)
end

return M
