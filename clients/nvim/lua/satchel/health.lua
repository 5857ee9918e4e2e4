-- :checkhealth satchel: the binary, its version, the database, and whether it answers.
local M = {}

-- vim.health (0.10: start/ok/error; 0.8-0.9: report_*) or, on 0.7, the health# functions.
local report = {}
for _, name in ipairs({ 'start', 'ok', 'warn', 'error', 'info' }) do
  report[name] = function(text)
    local health = vim.health or {}
    local fn = health[name] or health['report_' .. name]
    if fn then
      fn(text)
    else
      vim.fn['health#report_' .. name](text)
    end
  end
end

function M.check()
  local satchel = require('satchel')
  local rpc = require('satchel.rpc')
  report.start('satchel')
  local cmd, why = rpc.command(satchel.options)
  if not cmd then
    return report.error(why)
  end
  if vim.fn.executable(cmd[1]) ~= 1 then
    return report.error('not executable: ' .. cmd[1])
  end
  report.ok('binary: ' .. cmd[1])
  local version = vim.fn.system({ cmd[1], '--version' })
  if vim.v.shell_error == 0 then
    report.ok('version: ' .. vim.trim(version))
  else
    report.error('`' .. cmd[1] .. ' --version` failed: ' .. vim.trim(version))
  end
  local err, info = rpc.request_sync('server.info', nil, 5000)
  if err then
    return report.error('the server does not answer: ' .. (err.message or ''))
  end
  report.ok('database: ' .. info.database)
  local ping_err = rpc.request_sync('ping', nil, 2000)
  if ping_err then
    report.error('ping failed: ' .. ping_err.message)
  else
    report.ok('protocol: ping answered; ' .. vim.inspect(info.counts):gsub('%s+', ' '))
  end
  M.check_sync(rpc, report)
end

-- Sync with PostgreSQL (`--sync URL` in `cmd`): off, or where it syncs and how it stands.
function M.check_sync(rpc, report)
  local err, sync = rpc.request_sync('sync.status', nil, 2000)
  if err then
    return report.warn('sync: the server does not say (' .. (err.message or '') .. ')')
  end
  if not sync.enabled then
    return report.info('sync: off (add --sync URL to cmd to sync through PostgreSQL)')
  end
  local where = ('sync: %s as %s, device %s'):format(sync.server, sync.account or '?', sync.device)
  if sync.connected and sync.schema == 'ok' then
    report.ok(('%s; %d change(s) to push'):format(where, sync.pending))
  elseif sync.connected then
    report.warn(('%s; the schema is %s: %s'):format(where, sync.schema, sync.lastError or ''))
  else
    report.warn(('%s; offline, %d change(s) waiting: %s'):format(where, sync.pending, sync.lastError or 'not connected yet'))
  end
end

return M
