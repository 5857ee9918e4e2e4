-- ENotes: the list (title, deadline, the note's colour; reorder by moving lines; delete lines and :w), and
-- each note as a buffer satchel://notes/<id>: the title, a blank line, the content; :w saves with ifRevision.
local satchel = require('satchel')
local rpc = require('satchel.rpc')
local buffer = require('satchel.buffer')
local i18n = require('satchel.i18n')

local M = {}
local LIST = 'satchel://notes'
local ns = vim.api.nvim_create_namespace('satchel_notes')

-- A list line: the id (concealed), then what a person reads.
local function line_of(note)
  local deadline = note.deadline ~= vim.NIL and note.deadline and ('  ⏰ ' .. note.deadline:sub(1, 16):gsub('T', ' ') .. ' UTC') or ''
  local title = note.title ~= '' and note.title or (note.content:match('^[^\n]*') or '')
  return note.id .. ' ' .. title .. deadline
end

local function id_of(line)
  return line:match('^(%S+) ')
end

local function colour_group(hex)
  local name = 'SatchelNote' .. hex:sub(2)
  vim.api.nvim_set_hl(0, name, { bg = hex, fg = '#1c1c1e' })
  return name
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
    vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
    for index, note in ipairs(notes) do
      vim.api.nvim_buf_add_highlight(bufnr, ns, colour_group(note.color.hex), index - 1, #note.id + 1, -1)
    end
    if #notes == 0 then
      vim.api.nvim_buf_set_extmark(bufnr, ns, 0, 0, { virt_text = { { i18n.t('no_notes'), 'Comment' } } })
    end
  end)
end

-- :w on the list: lines deleted are notes to delete (after a confirmation), the order of the others is the
-- order to keep.
local function write_list(bufnr)
  local before = vim.b[bufnr].satchel_ids or {}
  local order = {}
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local id = id_of(line)
    if id and not vim.tbl_contains(order, id) then
      table.insert(order, id)
    end
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
    vim.api.nvim_create_autocmd('BufWriteCmd', {
      buffer = bufnr,
      callback = function()
        write_list(bufnr)
      end,
    })
    -- The ids are concealed while the list is in a window, and only then.
    vim.api.nvim_create_autocmd('BufWinEnter', {
      buffer = bufnr,
      callback = function()
        vim.wo.conceallevel, vim.wo.concealcursor = 3, 'nvic'
      end,
    })
    vim.api.nvim_create_autocmd('BufWinLeave', {
      buffer = bufnr,
      callback = function()
        vim.wo.conceallevel, vim.wo.concealcursor = 0, ''
      end,
    })
    buffer.map(bufnr, '<CR>', function()
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

local function show_theirs(note)
  local name = 'satchel://notes/' .. note.id .. '/theirs'
  local bufnr = buffer.named(name)
  vim.bo[bufnr].buftype = 'nofile'
  buffer.set_lines(bufnr, note_lines(note))
  vim.cmd('vertical sbuffer ' .. bufnr)
  vim.cmd('wincmd p')
end

local function write_note(bufnr)
  local title, content = parse(bufnr)
  local id = vim.b[bufnr].satchel_id
  local err, note
  if id then
    err, note = rpc.request_sync('notes.update', { id = id, title = title, content = content, ifRevision = vim.b[bufnr].satchel_revision })
  else
    err, note = rpc.request_sync('notes.create', { title = title, content = content })
  end
  if err then
    if err.data and err.data ~= vim.NIL and err.data.reason == 'revisionConflict' then
      local read_err, theirs = rpc.request_sync('notes.get', { id = id })
      if not read_err then
        show_theirs(theirs)
        vim.b[bufnr].satchel_revision = theirs.revision -- the next :w keeps this version, having seen theirs
        vim.notify('Satchel: ' .. i18n.t('conflict', theirs.revision), vim.log.levels.WARN)
        return
      end
    end
    return satchel.fail(err) -- the buffer stays modified: nothing typed is lost
  end
  vim.b[bufnr].satchel_id = note.id
  vim.b[bufnr].satchel_revision = note.revision
  if not id then
    vim.api.nvim_buf_set_name(bufnr, 'satchel://notes/' .. note.id)
  end
  vim.bo[bufnr].modified = false
end

local function watch_note(bufnr)
  if vim.b[bufnr].satchel_view then
    return
  end
  vim.b[bufnr].satchel_view = true
  vim.bo[bufnr].filetype = 'markdown'
  vim.api.nvim_create_autocmd('BufWriteCmd', {
    buffer = bufnr,
    callback = function()
      write_note(bufnr)
    end,
  })
  -- Any change among the notes (a burst may carry several) makes the note read again.
  buffer.register(bufnr, { 'notes' }, function()
    local id = vim.b[bufnr].satchel_id
    if not id then
      return
    end
    rpc.request('notes.get', { id = id }, function(err, note)
      if err or vim.bo[bufnr].modified or note.revision == vim.b[bufnr].satchel_revision then
        return
      end
      buffer.set_lines(bufnr, note_lines(note))
      vim.b[bufnr].satchel_revision = note.revision
    end)
  end)
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
  vim.b[bufnr].satchel_revision = note.revision
  watch_note(bufnr)
end

--- :Satchel note new: an empty note buffer; :w creates it.
function M.new()
  local draft = vim.fn.bufnr('^satchel://notes/new$')
  if draft ~= -1 then
    return vim.api.nvim_set_current_buf(draft) -- the draft already begun
  end
  vim.cmd('enew')
  local bufnr = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_name(bufnr, 'satchel://notes/new')
  vim.bo[bufnr].buftype = 'acwrite'
  vim.bo[bufnr].swapfile = false
  watch_note(bufnr)
end

return M
