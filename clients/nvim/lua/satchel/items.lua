-- What `:edit satchel://...` (and a quickfix entry from search) opens: the lists, or one item.
local notify = require('satchel.notify')

local M = {}

local readers = {
  notes = function(bufnr, id)
    require('satchel.notes').read(bufnr, id)
  end,
  diary = function(bufnr, id)
    require('satchel.diary').read(bufnr, id)
  end,
  messages = function(bufnr, id)
    require('satchel.messages').read(bufnr, id)
  end,
  board = function(bufnr, id)
    require('satchel.board').read(bufnr, id)
  end,
  reminders = function(bufnr, id)
    require('satchel.reminders').read(bufnr, id)
  end,
  photos = function(bufnr, id)
    require('satchel.diary').read_photo(bufnr, id)
  end,
}

local lists = {
  notes = function()
    require('satchel.notes').open_list()
  end,
  reminders = function()
    require('satchel.reminders').open()
  end,
  diary = function()
    require('satchel.diary').open_list()
  end,
  messages = function()
    require('satchel.messages').open()
  end,
  board = function()
    require('satchel.board').open()
  end,
}

function M.read(bufnr, name)
  local domain, id = name:match('^satchel://(%w+)/([%w_]+)$')
  if domain and readers[domain] then
    if id == 'new' then
      return -- a draft (:Satchel note new, diary new): its text is the person's
    end
    return readers[domain](bufnr, id)
  end
  domain = name:match('^satchel://(%w+)$')
  if domain and lists[domain] then
    return vim.schedule(lists[domain])
  end
  vim.bo[bufnr].buftype = 'nofile'
  vim.bo[bufnr].modifiable = false
  notify(require('satchel.i18n').t('unknown_buffer', name), vim.log.levels.ERROR)
end

return M
