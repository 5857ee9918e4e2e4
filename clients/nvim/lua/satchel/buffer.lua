-- Satchel's buffers: named satchel://..., one per view, refreshed when the data they show changes.
local notify = require('satchel.notify')

local M = {}

local views = {} -- bufnr -> {domain = ..., render = function(bufnr)}

--- The buffer called `name`, made (unlisted scratch-like, written through BufWriteCmd) when missing.
function M.named(name)
  local bufnr = vim.fn.bufnr('^' .. vim.pesc(name) .. '$')
  if bufnr == -1 then
    bufnr = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_buf_set_name(bufnr, name)
  end
  vim.bo[bufnr].buftype = 'acwrite'
  vim.bo[bufnr].swapfile = false
  vim.bo[bufnr].bufhidden = 'hide'
  return bufnr
end

--- Shows the view called `name` (made on first use; `editable`: whether its text may be changed by hand).
--- Answers its number and whether it is new, so that its keys and autocommands are set once. Every view
--- has `q` (close) and `g?` (its keys).
function M.view(name, filetype, editable)
  local bufnr = M.named(name)
  vim.bo[bufnr].filetype = filetype
  vim.bo[bufnr].modifiable = editable
  M.show(bufnr)
  local new = not vim.b[bufnr].satchel_view
  vim.b[bufnr].satchel_view = true
  if new then
    local app = name:match('^satchel://(%w+)') or 'satchel'
    M.map(bufnr, app .. '.close', 'q', M.close, 'Close')
    M.map(bufnr, app .. '.help', 'g?', function()
      M.show_keys(bufnr)
    end, 'These keys')
  end
  return bufnr, new
end

--- The command modifiers (`:vertical`, `:tab`, `:botright`…) of the :Satchel command being run.
M.mods = ''

--- Shows `bufnr`: in the current window, or where the command's modifiers say (`:vertical Satchel notes`).
function M.show(bufnr)
  if M.mods ~= '' then
    vim.cmd(M.mods .. ' sbuffer ' .. bufnr)
  else
    vim.api.nvim_set_current_buf(bufnr)
  end
end

--- A new empty buffer, where the command's modifiers say (else in the current window).
function M.new_buffer()
  vim.cmd(M.mods ~= '' and (M.mods .. ' new') or 'enew')
  return vim.api.nvim_get_current_buf()
end

--- `q`: closes the window, or, in the last one, shows the previous buffer (an empty one if none).
function M.close()
  if #vim.api.nvim_tabpage_list_wins(0) > 1 then
    vim.cmd('close')
  elseif vim.fn.buflisted(vim.fn.bufnr('#')) == 1 then
    vim.cmd('buffer #')
  else
    vim.cmd('enew')
  end
end

local line_ids = {} -- bufnr -> {[line] = the id of the item drawn there}

--- The id of the item drawn at `line` of `bufnr` (as the last `set_lines` with ids drew it).
function M.id_at(bufnr, line)
  return (line_ids[bufnr] or {})[line]
end

--- Where each window on `bufnr` is: the item under its cursor and how far into that item, or its line.
local function cursors(bufnr)
  local ids = line_ids[bufnr] or {}
  local found = {}
  for _, window in ipairs(vim.fn.win_findbuf(bufnr)) do
    local row, col = unpack(vim.api.nvim_win_get_cursor(window))
    local id, first = ids[row], row
    while id ~= nil and first > 1 and ids[first - 1] == id do
      first = first - 1
    end
    table.insert(found, { window = window, id = id, offset = row - first, row = row, col = col })
  end
  return found
end

--- Puts each window's cursor back on the item it was on (the same line of it, where it still has one).
local function restore(bufnr, found, count)
  local ids = line_ids[bufnr] or {}
  for _, place in ipairs(found) do
    local row = math.min(place.row, math.max(count, 1))
    if place.id ~= nil then
      for line = 1, count do
        if ids[line] == place.id then
          row = line
          while place.offset > 0 and ids[row + 1] == place.id do
            row, place.offset = row + 1, place.offset - 1
          end
          break
        end
      end
    end
    if vim.api.nvim_win_is_valid(place.window) then
      pcall(vim.api.nvim_win_set_cursor, place.window, { row, place.col })
    end
  end
end

--- Replaces the buffer's text without marking it modified. `ids` (optional): the id of the item each line
--- shows; with them every window's cursor stays on the item it was on, wherever the new drawing puts it
--- (a vote that re-sorts the board must not move the next key to another post). Without them, the cursor
--- keeps its line where it can. A drawing is no edit: `u` never takes it out (a note just opened is not
--- emptied), so it is made with 'undolevels' at -1, which also forgets the edits of the text it replaces.
function M.set_lines(bufnr, lines, ids)
  local found = cursors(bufnr)
  local modifiable, undolevels = vim.bo[bufnr].modifiable, vim.bo[bufnr].undolevels
  vim.bo[bufnr].modifiable, vim.bo[bufnr].undolevels = true, -1
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].undolevels = undolevels
  vim.bo[bufnr].modified = false
  vim.bo[bufnr].modifiable = modifiable
  if ids then
    line_ids[bufnr] = ids
    restore(bufnr, found, #lines)
  end
end

--- Registers a view: `render(bufnr)` runs again when a change in `domains` arrives (unless the buffer has
--- unsaved changes or its owner says `busy`). `edited(bufnr)` (optional) is what runs instead when the
--- buffer has unsaved changes: a view that can bring a change into what is typed (a note merges).
function M.register(bufnr, domains, render, busy, edited)
  views[bufnr] = { domains = domains, render = render, busy = busy, edited = edited }
  vim.api.nvim_buf_attach(bufnr, false, {
    on_detach = function()
      views[bufnr] = nil
      line_ids[bufnr] = nil
      keys_of[bufnr] = nil
    end,
  })
end

local scheduled = {}

--- The view in `bufnr` renders again in a moment (once per burst), unless by then it has unsaved changes
--- (then its `edited`, if any, runs) or its owner says `busy`: what is typed is never drawn over.
local function refresh(bufnr, view, event)
  if not vim.api.nvim_buf_is_loaded(bufnr) or scheduled[bufnr] then
    return
  end
  scheduled[bufnr] = true
  vim.defer_fn(function()
    scheduled[bufnr] = nil
    if not vim.api.nvim_buf_is_loaded(bufnr) then
      return
    end
    if vim.bo[bufnr].modified then
      if view.edited then
        view.edited(bufnr, event)
      end
      return
    end
    if view.busy and view.busy(bufnr) then
      return
    end
    view.render(bufnr, event)
  end, 30)
end

--- A `changed` event: the views of its domain render again (once per burst).
function M.changed(event)
  for bufnr, view in pairs(views) do
    if vim.tbl_contains(view.domains, event.domain) then
      refresh(bufnr, view, event)
    end
  end
end

--- A `resync`: the server skipped more changes than it sends one by one (an import of thousands, here or
--- in another process), so any view may be out of date: every one renders again, as on a change of its
--- domains.
function M.resync()
  for bufnr, view in pairs(views) do
    refresh(bufnr, view, nil)
  end
end

--- `fn`, whose errors are one notification instead of a traceback and a hit-enter prompt.
function M.guarded(fn)
  return function(...)
    local ok, err = pcall(fn, ...)
    if not ok then
      notify('Satchel: ' .. tostring(err):gsub('\n.*', ''), vim.log.levels.ERROR)
    end
  end
end

--- An autocommand of this buffer, guarded.
function M.autocmd(event, bufnr, fn)
  vim.api.nvim_create_autocmd(event, { buffer = bufnr, callback = M.guarded(fn) })
end

local keys_of = {} -- bufnr -> {{mode, lhs, description}}, for g?

--- Maps the action `name` ('board.vote_up': app and action) to `lhs` in normal mode (or `mode`) for this
--- buffer only; setup({keys = {board = {vote_up = '='}}}) gives it another key, `false` none.
function M.map(bufnr, name, lhs, rhs, description, mode)
  local app, action = name:match('^(%w+)%.([%w_]+)$')
  local keys = (package.loaded['satchel'] and package.loaded['satchel'].options.keys) or {}
  if type(keys[app]) == 'table' and keys[app][action] ~= nil then
    lhs = keys[app][action]
  end
  if not lhs then
    return
  end
  vim.keymap.set(mode or 'n', lhs, M.guarded(rhs), { buffer = bufnr, silent = true, nowait = true, desc = description })
  keys_of[bufnr] = keys_of[bufnr] or {}
  table.insert(keys_of[bufnr], { mode or 'n', lhs, description })
end

--- `dd` in a list that is not edited as text: deletes the item under the cursor (`id_at()`), after asking
--- with its `label`, through `method` ('board.delete'); `done()` follows.
function M.map_delete(bufnr, app, method, id_at, label, done)
  M.map(bufnr, app .. '.delete', 'dd', function()
    local id = id_at()
    if not id then
      return
    end
    local question = require('satchel.i18n').t('delete_item', label(id))
    if vim.fn.confirm(question, '&Yes\n&No', 2) == 1 then
      require('satchel').call(method, { id = id }, done)
    end
  end, 'Delete (asks first)')
end

--- Shows one item read-only: `lines` in `bufnr`, which cannot be changed by hand.
function M.show_item(bufnr, lines)
  vim.bo[bufnr].buftype = 'nofile'
  M.set_lines(bufnr, lines)
  vim.bo[bufnr].modifiable = false
end

--- Shows `lines` (another version of what is being edited: theirs, on a clash) in a buffer called `name`,
--- beside the current window, and goes back to that window. No autocommand runs meanwhile: leaving the
--- buffer being edited must not save it over theirs (a reminder's BufLeave would).
function M.show_beside(name, lines)
  local bufnr = M.named(name)
  vim.bo[bufnr].buftype = 'nofile'
  M.set_lines(bufnr, lines)
  vim.cmd('noautocmd vertical sbuffer ' .. bufnr)
  vim.cmd('noautocmd wincmd p')
end

--- `g?`: the keys of this buffer and what they do.
function M.show_keys(bufnr)
  local chunks = { { require('satchel.i18n').t('keys_title') .. '\n', 'Title' } }
  for _, key in ipairs(keys_of[bufnr] or {}) do
    local mode = key[1] == 'n' and '' or (key[1] .. ' ')
    table.insert(chunks, { ('  %-8s %s\n'):format(mode .. key[2], key[3]) })
  end
  vim.api.nvim_echo(chunks, false, {})
end

return M
