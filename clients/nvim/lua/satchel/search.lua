-- :Satchel search {query}: the hits in the quickfix list; each entry opens its item (satchel://domain/id).
local satchel = require('satchel')
local notify = require('satchel.notify')

local M = {}

function M.run(query)
  if vim.trim(query) == '' then
    return notify('Satchel: :Satchel search {query}', vim.log.levels.WARN)
  end
  satchel.call('search', { query = query, limit = 100 }, function(result)
    local items = {}
    for _, hit in ipairs(result.hits) do
      table.insert(items, {
        filename = ('satchel://%s/%s'):format(hit.domain, hit.id),
        lnum = 1,
        text = ('[%s] %s — %s'):format(hit.domain, hit.title, (hit.snippet:gsub('%*%*', ''))),
      })
    end
    vim.fn.setqflist({}, ' ', { title = 'Satchel: ' .. query, items = items })
    if #items > 0 then
      vim.cmd('copen')
    else
      notify('Satchel: 0 hits', vim.log.levels.INFO)
    end
  end)
end

return M
