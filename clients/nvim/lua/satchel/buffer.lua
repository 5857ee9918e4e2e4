-- Satchel's buffers: named satchel://..., one per view, refreshed when the data they show changes.
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
--- Answers its number and whether it is new, so that its keys and autocommands are set once.
function M.view(name, filetype, editable)
  local bufnr = M.named(name)
  vim.bo[bufnr].filetype = filetype
  vim.bo[bufnr].modifiable = editable
  M.show(bufnr)
  local new = not vim.b[bufnr].satchel_view
  vim.b[bufnr].satchel_view = true
  return bufnr, new
end

--- Shows `bufnr` in the current window.
function M.show(bufnr)
  vim.api.nvim_set_current_buf(bufnr)
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
--- keeps its line where it can.
function M.set_lines(bufnr, lines, ids)
  local found = cursors(bufnr)
  local modifiable = vim.bo[bufnr].modifiable
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modified = false
  vim.bo[bufnr].modifiable = modifiable
  if ids then
    line_ids[bufnr] = ids
    restore(bufnr, found, #lines)
  end
end

--- Registers a view: `render(bufnr)` runs again when a change in `domains` arrives (unless the buffer has
--- unsaved changes or its owner says `busy`).
function M.register(bufnr, domains, render, busy)
  views[bufnr] = { domains = domains, render = render, busy = busy }
  vim.api.nvim_buf_attach(bufnr, false, {
    on_detach = function()
      views[bufnr] = nil
      line_ids[bufnr] = nil
    end,
  })
end

local scheduled = {}

--- A `changed` event: the views of its domain render again (once per burst).
function M.changed(event)
  for bufnr, view in pairs(views) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(view.domains, event.domain) and not scheduled[bufnr] then
      scheduled[bufnr] = true
      vim.defer_fn(function()
        scheduled[bufnr] = nil
        if not vim.api.nvim_buf_is_loaded(bufnr) or vim.bo[bufnr].modified then
          return
        end
        if view.busy and view.busy(bufnr) then
          return
        end
        view.render(bufnr, event)
      end, 30)
    end
  end
end

--- Maps `lhs` in normal mode (or `mode`) for this buffer only.
function M.map(bufnr, lhs, rhs, description, mode)
  vim.keymap.set(mode or 'n', lhs, rhs, { buffer = bufnr, silent = true, nowait = true, desc = description })
end

return M
