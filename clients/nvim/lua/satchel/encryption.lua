-- End-to-end encryption of the account's private apps when syncing through PostgreSQL (`--sync URL`):
-- `:Satchel unlock` (sync.unlock: unlocks them on this device, or turns encryption on for an account without
-- it), `:Satchel passphrase` (sync.changePassphrase), and the notice that this device is locked.
-- Passphrases are asked with inputsecret(): never echoed, never in a history, never in a message.
local i18n = require('satchel.i18n')
local rpc = require('satchel.rpc')
local echo = require('satchel.notify')

local M = {}

-- The locked notice is given once.
local told = false

-- A new passphrase is at least this many characters (the server's rule for sync.changePassphrase, kept
-- for turning encryption on too).
local SHORTEST = 8

local function notify(key, level, ...)
  echo(i18n.t(key, ...), level or vim.log.levels.INFO)
end

local function wrong_passphrase(err)
  return type(err) == 'table' and type(err.data) == 'table' and err.data.reason == 'wrongPassphrase'
end

local function is_locked(status)
  return type(status) == 'table' and (status.encryption == 'locked' or status.state == 'locked')
end

--- Tells the person once that this device is locked, when `status` (sync.status's answer) says so.
function M.noticed(status)
  if is_locked(status) and not told then
    told = true
    notify('locked', vim.log.levels.WARN)
  end
end

-- Until the server has reached PostgreSQL, encryption is "unknown": asked again, less and less often.
local function poll(job, delay)
  if rpc.pid() ~= job then
    return
  end
  rpc.request('sync.status', nil, function(err, status)
    if err or type(status) ~= 'table' or not status.enabled or rpc.pid() ~= job then
      return
    end
    M.noticed(status)
    if status.encryption == 'unknown' then
      vim.defer_fn(function()
        poll(job, math.min(delay * 2, 30000))
      end, delay)
    end
  end)
end

--- At start-up (a satchel just started): whether its account is locked here, once PostgreSQL answers.
function M.watch()
  poll(rpc.pid(), 500)
end

--- Asks for a passphrase without showing it; nil when the person gave none (<Esc>, an empty line).
local function ask(key)
  local ok, answer = pcall(vim.fn.inputsecret, i18n.t(key))
  vim.cmd('redraw')
  if not ok or answer == nil or answer == '' then
    return nil
  end
  return answer
end

--- sync.status, waiting a few seconds for the server to reach PostgreSQL when it has not yet; nil (told)
--- when sync is off or the server does not answer.
local function status_known()
  local err, status = rpc.request_sync('sync.status', nil, 5000)
  if err then
    require('satchel').fail(err)
    return nil
  end
  if not status.enabled or status.state == 'off' then
    notify('sync_off', vim.log.levels.WARN)
    return nil
  end
  local deadline = vim.loop.now() + 5000
  while status.encryption == 'unknown' and vim.loop.now() < deadline do
    vim.wait(250)
    local again_err, again = rpc.request_sync('sync.status', nil, 2000)
    if again_err then
      break
    end
    status = again
  end
  return status
end

--- A new passphrase, asked twice: nil (told why) when the two differ or it is too short.
local function ask_new(first_key)
  local new = ask(first_key)
  if not new then
    return nil
  end
  local again = ask('passphrase_again')
  if again == nil then
    return nil
  end
  if again ~= new then
    notify('passphrases_differ', vim.log.levels.ERROR)
    return nil
  end
  if vim.fn.strchars(new) < SHORTEST then
    notify('passphrase_short', vim.log.levels.ERROR, SHORTEST)
    return nil
  end
  return new
end

--- :Satchel unlock: unlocks this device with the account's passphrase; on an account without encryption,
--- warns what losing the passphrase means and turns encryption on with one asked twice.
function M.unlock()
  local status = status_known()
  if not status then
    return
  end
  local params
  if status.encryption == 'on' then
    return notify('already_unlocked')
  elseif status.encryption == 'off' then
    notify('turn_on_warning', vim.log.levels.WARN)
    local new = ask_new('new_passphrase')
    if not new then
      return
    end
    params = { passphrase = new }
  elseif status.encryption == 'unknown' then
    return notify('not_reached', vim.log.levels.WARN)
  else
    local given = ask('passphrase')
    if not given then
      return
    end
    params = { passphrase = given }
  end
  local turning_on = status.encryption == 'off'
  notify(turning_on and 'turning_on' or 'unlocking')
  rpc.request('sync.unlock', params, function(err)
    if wrong_passphrase(err) then
      return notify('wrong_passphrase', vim.log.levels.ERROR)
    elseif err then
      return require('satchel').fail(err)
    end
    told = false -- locked again one day (another account, another database): told again
    notify(turning_on and 'turned_on' or 'unlocked')
  end)
end

--- :Satchel passphrase: the current passphrase, then the new one twice; the account's key is wrapped anew.
function M.change()
  local status = status_known()
  if not status then
    return
  end
  if status.encryption == 'off' then
    return notify('encryption_off', vim.log.levels.WARN)
  elseif status.encryption == 'unknown' then
    return notify('not_reached', vim.log.levels.WARN)
  end
  local current = ask('current_passphrase')
  if not current then
    return
  end
  local new = ask_new('changed_passphrase')
  if not new then
    return
  end
  notify('changing')
  rpc.request('sync.changePassphrase', { passphrase = current, newPassphrase = new }, function(err)
    if wrong_passphrase(err) then
      return notify('wrong_current', vim.log.levels.ERROR)
    elseif err then
      return require('satchel').fail(err)
    end
    notify('passphrase_changed')
  end)
end

return M
