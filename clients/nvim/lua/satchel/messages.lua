-- Messages: the chat, newest at the bottom. `L` (or moving to the first line) loads earlier messages and
-- says when history has ended; `i` sends (a prompt); <CR> opens a message.
local satchel = require('satchel')
local buffer = require('satchel.buffer')
local i18n = require('satchel.i18n')
local notify = require('satchel.notify')

local M = {}
local NAME = 'satchel://messages'

local function line_of(message)
  return ('%s  %s: %s'):format(message.sentAt:sub(1, 16):gsub('T', ' '), message.author.name, message.text:gsub('\n', ' '))
end

-- Draws the chat. The cursor stays on the message it was on (earlier messages loaded above it, a message
-- arriving below it); `to_bottom` (opening the chat, sending) puts it on the newest.
local function render(bufnr, to_bottom)
  satchel.all('messages.list', {}, function(newest_first)
    local items = {}
    for index = #newest_first, 1, -1 do
      table.insert(items, newest_first[index])
    end
    local ids = vim.tbl_map(function(message)
      return message.id
    end, items)
    vim.b[bufnr].satchel_ids = ids
    buffer.set_lines(bufnr, vim.tbl_map(line_of, items), ids)
    if to_bottom and vim.api.nvim_get_current_buf() == bufnr then
      pcall(vim.api.nvim_win_set_cursor, 0, { math.max(#items, 1), 0 })
    end
  end)
end

local loading = false

local function load_earlier(bufnr)
  if loading or vim.b[bufnr].satchel_end then
    return
  end
  loading = true
  vim.api.nvim_echo({ { i18n.t('loading') } }, false, {})
  require('satchel.rpc').request('messages.loadMore', { limit = 20 }, function(err, result)
    loading = false
    if err then
      return satchel.fail(err)
    end
    if result.endOfHistory then
      vim.b[bufnr].satchel_end = true
      notify('Satchel: ' .. i18n.t('end_of_history'), vim.log.levels.INFO)
    end
    render(bufnr)
  end)
end

function M.open()
  local bufnr, new = buffer.view(NAME, 'satchel-messages', false)
  if new then
    buffer.map(bufnr, 'messages.load_earlier', 'L', function()
      load_earlier(bufnr)
    end, 'Load earlier messages')
    local function compose(default)
      vim.ui.input({ prompt = i18n.t('message_prompt'), default = default }, function(text)
        if text == nil or vim.trim(text) == '' then
          return
        end
        require('satchel.rpc').request('messages.send', { text = text }, function(err)
          if err then
            satchel.fail(err)
            return compose(text) -- the text comes back to be corrected
          end
          render(bufnr, true)
        end)
      end)
    end
    buffer.map(bufnr, 'messages.send', 'i', function()
      compose(nil)
    end, 'Send a message')
    buffer.map(bufnr, 'messages.open', '<CR>', function()
      local id = (vim.b[bufnr].satchel_ids or {})[vim.api.nvim_win_get_cursor(0)[1]]
      if id then
        vim.cmd('edit satchel://messages/' .. id)
      end
    end, 'Open the message')
    buffer.autocmd('CursorMoved', bufnr, function()
      if vim.api.nvim_win_get_cursor(0)[1] == 1 and vim.api.nvim_buf_line_count(bufnr) > 1 then
        load_earlier(bufnr)
      end
    end)
    buffer.map_delete(bufnr, 'messages', 'messages.delete', function()
      return buffer.id_at(bufnr, vim.api.nvim_win_get_cursor(0)[1])
    end, function()
      return vim.api.nvim_get_current_line()
    end, function()
      render(bufnr)
    end)
    buffer.register(bufnr, { 'messages' }, function()
      render(bufnr)
    end)
  end
  render(bufnr, true)
end

--- satchel://messages/<id>: the date, the author (and avatar URL) and the whole text.
function M.read(bufnr, id)
  satchel.call('messages.get', { id = id }, function(message)
    local avatar = message.author.avatarUrl ~= vim.NIL and message.author.avatarUrl or '-'
    local lines = { message.sentAt, message.author.name .. '  ' .. avatar, '' }
    vim.list_extend(lines, vim.split(message.text, '\n', { plain = true }))
    buffer.show_item(bufnr, lines)
  end)
end

return M
