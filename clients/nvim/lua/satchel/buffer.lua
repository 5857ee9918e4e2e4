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

--- Replaces the buffer's text without marking it modified, keeping the cursor's line where it can.
function M.set_lines(bufnr, lines)
  local modifiable = vim.bo[bufnr].modifiable
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modified = false
  vim.bo[bufnr].modifiable = modifiable
end

--- Registers a view: `render(bufnr)` runs again when a change in `domains` arrives (unless the buffer has
--- unsaved changes or its owner says `busy`).
function M.register(bufnr, domains, render, busy)
  views[bufnr] = { domains = domains, render = render, busy = busy }
  vim.api.nvim_buf_attach(bufnr, false, {
    on_detach = function()
      views[bufnr] = nil
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
