-- :Satchel device-name [name]: this device's name (`sync.status`'s deviceName), which a conflict copy made
-- from its version carries in its title; with a name, names it (`sync.setDeviceName`).
local satchel = require('satchel')
local i18n = require('satchel.i18n')
local notify = require('satchel.notify')

local M = {}

-- A name refused, in the plugin's words: the server's reasons (a server built before these reasons had
-- names of their own says emptyTitle and titleTooLong for them).
local refused = {
  emptyName = 'empty',
  emptyTitle = 'empty',
  nameTooLong = 'long',
  titleTooLong = 'long',
}

local function refusal(err)
  local data = type(err.data) == 'table' and err.data or {}
  local why = refused[data.reason]
  if why == 'empty' then
    return i18n.t('device_name_empty')
  elseif why == 'long' then
    return i18n.t('device_name_long', tonumber(data.limit) or 64)
  end
end

--- Tells this device's name, or, given `name`, sets it and tells the new one.
function M.name(name)
  name = vim.trim(name or '')
  if name == '' then
    return satchel.call('sync.status', nil, function(status)
      require('satchel.encryption').noticed(status)
      notify(i18n.t('device_name', status.deviceName), vim.log.levels.INFO)
    end)
  end
  require('satchel.rpc').request('sync.setDeviceName', { name = name }, function(err, result)
    if err then
      local words = refusal(err)
      if words then
        return notify(words, vim.log.levels.ERROR)
      end
      return satchel.fail(err)
    end
    notify(i18n.t('device_named', result.deviceName), vim.log.levels.INFO)
  end)
end

return M
