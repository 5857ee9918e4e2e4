-- :checkhealth satchel: the binary, its version, the database, whether it answers, and how sync stands
-- (its encryption too).
local M = {}

-- vim.health (0.10: start/ok/error; 0.8-0.9: report_*) or, on 0.7, the health# functions.
local report = {}
-- `advice` (warn and error): what to do, shown under the message.
for _, name in ipairs({ 'start', 'ok', 'warn', 'error', 'info' }) do
  report[name] = function(text, advice)
    local health = vim.health or {}
    local fn = health[name] or health['report_' .. name]
    local args = advice and { text, advice } or { text }
    if fn then
      fn(unpack(args))
    else
      vim.fn['health#report_' .. name](unpack(args))
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

-- What stops sync until a person acts (`sync.status`'s `reason`), and what to do.
local reasons = {
  authenticationFailed = 'the password (or the role) was refused: check the URL in cmd',
  databaseMissing = 'the database was not found: check its name in the URL',
  tlsRequired = 'the server asks for a secure connection: add sslmode=require to the URL',
  unsafeRole = 'this role may not sync (a superuser, BYPASSRLS, or the schema\'s owner): give the device a role of its own',
  schemaMissing = 'sync is not set up in this database: run `satchel sync-setup URL` as its owner',
  schemaOlder = 'the sync schema is older than this satchel: run `satchel sync-setup URL` as its owner',
  schemaNewer = 'the sync schema is newer than this satchel: update satchel',
  wrongRole = 'logged in as another role than the account: name the role in the URL',
  quotaExceeded = 'the storage quota is reached',
  wrongPassphrase = 'the passphrase given does not unlock the account\'s encrypted apps: :Satchel unlock with the right one',
}

-- End-to-end encryption of the account's private apps (`sync.status`'s `encryption`).
local function check_encryption(sync, report)
  local encryption = sync.encryption
  if encryption == 'on' then
    report.ok('encryption: on (end-to-end: notes, reminders, diary and their photos are sealed in PostgreSQL; '
      .. ':Satchel passphrase changes the passphrase)')
  elseif encryption == 'off' then
    report.info('encryption: off (PostgreSQL can read this account\'s notes; :Satchel unlock turns end-to-end encryption on)')
  elseif encryption == 'locked' then
    report.warn('encryption: locked (the account is encrypted; this device has not unlocked it: its private '
      .. 'changes wait, nothing private is pulled)', ':Satchel unlock with the account\'s passphrase')
  elseif encryption == 'unknown' then
    report.info('encryption: not known yet (PostgreSQL has not answered)')
  end -- a server older than encryption says nothing of it
end

-- Skipped rows listed (the newest).
local LISTED = 5

-- Sync with PostgreSQL (`--sync URL` in `cmd`): off, or where it syncs and how it stands (`state`), and the
-- rows this device skipped because they break a rule.
function M.check_sync(rpc, report)
  local err, sync = rpc.request_sync('sync.status', nil, 2000)
  if err then
    return report.warn('sync: the server does not say (' .. (err.message or '') .. ')')
  end
  if sync.deviceName ~= nil and sync.deviceName ~= vim.NIL then -- a server older than device names has none
    report.info(('device name: %s (a conflict copy made from this device\'s version says so; '
      .. ':Satchel device-name {name} changes it)'):format(sync.deviceName))
  end
  if not sync.enabled or sync.state == 'off' then
    return report.info('sync: off (add --sync URL to cmd to sync through PostgreSQL)')
  end
  local function text(value)
    return value ~= nil and value ~= vim.NIL and tostring(value) or nil
  end
  local where = ('sync: %s as %s, device %s'):format(sync.server, text(sync.account) or '?', sync.device)
  local last_error = text(sync.lastError)
  if sync.state == 'synced' then
    report.ok(where .. '; synced')
  elseif sync.state == 'syncing' then
    local progress = sync.progress ~= vim.NIL and sync.progress or nil
    if progress then
      report.ok(('%s; syncing: %d of %d row(s) pulled, %d change(s) to push'):format(
        where, progress.pulled, progress.total, sync.pending))
    else
      report.ok(('%s; syncing: %d change(s) to push'):format(where, sync.pending))
    end
  elseif sync.state == 'locked' then
    report.warn(('%s; locked: private apps wait (%d change(s)); shared ones sync'):format(where, sync.pending),
      ':Satchel unlock')
  elseif sync.state == 'offline' then
    report.warn(('%s; offline, %d change(s) waiting: %s'):format(where, sync.pending, last_error or 'not connected yet'))
  else
    local reason = text(sync.reason)
    local advice = reason and reasons[reason] or nil
    report.info(where)
    report.error(('sync stopped (%s): %s'):format(reason or 'error', last_error or advice or 'no reason given'), advice)
  end
  check_encryption(sync, report)
  local skipped = sync.skipped
  if type(skipped) == 'table' and (skipped.count or 0) > 0 then
    local lines = {}
    for index, row in ipairs(skipped.recent or {}) do
      if index > LISTED then
        break
      end
      lines[#lines + 1] = ('%s %s: %s'):format(row.domain, row.entity, row.reason)
    end
    report.warn(('sync: %d row(s) skipped: they break a rule%s'):format(skipped.count,
      #lines > 0 and ('; the newest: ' .. table.concat(lines, '; ')) or ''))
  end
end

return M
