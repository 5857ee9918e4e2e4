-- The connection: one satchel per Neovim, spawned on first use, JSON-RPC 2.0 over its pipes, one message a
-- line. Answers are matched by id and handed to callbacks on the main loop; progress reports go to the
-- request that asked for them, other notifications (`changed`, `resync`) to the listeners; a server that
-- dies is reported and started again on the next request.
local notify = require('satchel.notify')

local M = {}

local state = {
  job = nil, -- the job id while a satchel runs
  next_id = 0,
  pending = {}, -- id -> callback(err, result)
  progress = {}, -- progressToken -> handler(params), while its request waits for the answer
  partial = '', -- the start of a line whose end has not arrived yet
  stderr = {}, -- its last lines, for reports
  listeners = {},
  starters = {}, -- run (scheduled) each time a satchel starts
  stopping = false,
  quitting = false, -- Neovim is quitting: no server starts any more
  told = nil, -- why the server could not start, once that is said
  options = {},
}

local STDERR_KEPT = 20

--- The Satchel checkout this plugin lies in (clients/nvim of it), if it is one.
local function checkout()
  local source = debug.getinfo(1, 'S').source:gsub('^@', '')
  return vim.fn.fnamemodify(source, ':p:h:h:h:h:h')
end

--- The command that starts the server: `cmd` from setup, else $SATCHEL_BINARY, else `satchel` on PATH, else
--- the release (or debug) build of the checkout the plugin lies in, as satchel-client looks; `db` and
--- `locale` from setup become flags. Without a program to run: nil, and why and what to do, in words.
function M.command(options)
  local i18n = require('satchel.i18n')
  local binary, from
  if options.cmd then
    binary, from = options.cmd[1], 'setup({cmd})'
  elseif vim.env.SATCHEL_BINARY and vim.env.SATCHEL_BINARY ~= '' then
    binary, from = vim.env.SATCHEL_BINARY, '$SATCHEL_BINARY'
  else
    binary = vim.fn.exepath('satchel')
    for _, build in ipairs({ 'release', 'debug' }) do
      local candidate = checkout() .. '/.build/' .. build .. '/satchel'
      if binary == '' and vim.fn.executable(candidate) == 1 then
        binary = candidate
      end
    end
    if binary == '' then
      return nil, i18n.t('no_binary')
    end
  end
  if vim.fn.executable(binary) ~= 1 then
    return nil, i18n.t('bad_binary', from, vim.fn.fnamemodify(binary, ':~'))
  end
  local cmd = options.cmd and vim.deepcopy(options.cmd) or { binary }
  if options.db then
    vim.list_extend(cmd, { '--db', vim.fn.expand(options.db) })
  end
  if options.locale then
    vim.list_extend(cmd, { '--locale', options.locale })
  end
  return cmd
end

local function fail_pending(message)
  local pending = state.pending
  state.pending = {}
  for _, callback in pairs(pending) do
    callback({ code = -32098, message = message, data = { reason = 'serverExited' } }, nil)
  end
end

local function dispatch(line)
  local ok, message = pcall(vim.json.decode, line)
  if not ok or type(message) ~= 'table' then
    return
  end
  if message.method == 'notifications/progress' and type(message.params) == 'table' then
    local handler = state.progress[message.params.progressToken]
    if handler ~= nil then
      vim.schedule(function() -- in order with the answers, which are scheduled too
        local called, err = pcall(handler, message.params)
        if not called then
          notify('satchel: ' .. tostring(err), vim.log.levels.ERROR)
        end
      end)
      return
    end
  end
  if message.method ~= nil then
    for _, listener in ipairs(state.listeners) do
      local called, err = pcall(listener, message.method, message.params)
      if not called then
        notify('satchel: ' .. tostring(err), vim.log.levels.ERROR)
      end
    end
    return
  end
  local callback = state.pending[message.id]
  if callback == nil then
    return
  end
  state.pending[message.id] = nil
  if message.error ~= nil then
    callback(message.error, nil)
  else
    callback(nil, message.result)
  end
end

-- jobstart hands over output as a list of lines: the first continues the last call's unfinished line, the
-- last is unfinished ('' when the chunk ended with a newline).
local function on_stdout(_, data)
  data[1] = state.partial .. data[1]
  state.partial = table.remove(data)
  for _, line in ipairs(data) do
    if line ~= '' then
      dispatch(line)
    end
  end
end

local function on_stderr(_, data)
  for _, line in ipairs(data) do
    if line ~= '' then
      table.insert(state.stderr, line)
      if #state.stderr > STDERR_KEPT then
        table.remove(state.stderr, 1)
      end
    end
  end
end

local function on_exit(_, code)
  local expected = state.stopping
  state.job = nil
  state.partial = ''
  fail_pending('satchel exited with code ' .. code)
  if not expected then
    local tail = table.concat(state.stderr, '\n')
    notify(
      ('satchel exited with code %d; it starts again on the next use%s'):format(code, tail ~= '' and (':\n' .. tail) or ''),
      vim.log.levels.WARN
    )
  end
end

--- Starts the server when none runs; answers true, or false and why.
function M.start()
  if state.quitting then
    return false, 'Neovim is quitting'
  elseif state.job ~= nil then
    return true
  end
  local cmd, why = M.command(state.options)
  if cmd == nil then
    return false, why
  end
  state.stopping = false
  state.stderr = {}
  local ok, job = pcall(vim.fn.jobstart, cmd, {
    on_stdout = on_stdout,
    on_stderr = on_stderr,
    on_exit = on_exit,
  })
  if not ok or job <= 0 then
    return false, ('could not start %s'):format(table.concat(cmd, ' '))
  end
  state.job = job
  state.told = nil
  M.request('initialize', { clientInfo = { name = 'satchel.nvim' }, locale = state.options.locale }, function() end)
  M.request('changes.subscribe', vim.empty_dict(), function() end)
  for _, starter in ipairs(state.starters) do
    vim.schedule(starter)
  end
  return true
end

local function send(message)
  vim.fn.chansend(state.job, vim.json.encode(message) .. '\n')
end

--- Sends `method` with `params` (a table, or nil); `callback(err, result)` runs on the main loop with the
--- server's error object ({code, message, data}) or the result. `options.progress(params)`: called on the main
--- loop with each progress report ({progress, total?, message?}) before the answer (the request carries
--- `_meta.progressToken`).
function M.request(method, params, callback, options)
  local ok, why = M.start()
  if not ok then
    -- Said once, not on every command that needs the server: why, and what to do (the callback is not to
    -- say it again). A different reason (another binary, from setup()) is said in its turn.
    if why ~= state.told and not state.quitting then
      state.told = why
      notify('Satchel: ' .. why, vim.log.levels.ERROR)
    end
    vim.schedule(function()
      callback({ code = -32098, message = why, data = { reason = 'notStarted' } }, nil)
    end)
    return
  end
  state.next_id = state.next_id + 1
  local id = state.next_id
  local token
  if options and options.progress then
    token = 'satchel.nvim-' .. id
    params = vim.tbl_extend('force', params or {}, { _meta = { progressToken = token } })
    state.progress[token] = options.progress
  end
  state.pending[id] = function(err, result)
    if token then
      state.progress[token] = nil -- a report read after the answer has nobody to go to
    end
    vim.schedule(function()
      callback(err, result)
    end)
  end
  send({ jsonrpc = '2.0', id = id, method = method, params = params })
end

--- Sends a notification (never answered).
function M.notify(method, params)
  if state.job ~= nil then
    send({ jsonrpc = '2.0', method = method, params = params })
  end
end

--- Waits for the answer (for at most `timeout` ms, default 5000) while Neovim keeps processing events;
--- answers err, result. A request still unanswered then is not a failure: it may yet go through. The
--- caller gets an error with `data.reason = 'stillWaiting'` (and keeps what the person typed), and the
--- outcome is told when it comes: `late(err, result)`, by default a notification saying how it went.
function M.request_sync(method, params, timeout, late)
  local done, err, result, gave_up = false, nil, nil, false
  M.request(method, params, function(e, r)
    done, err, result = true, e, r
    if gave_up then
      if late then
        late(e, r)
      else
        local i18n = require('satchel.i18n')
        if e then
          notify(i18n.t('late_failed', method, e.message or vim.inspect(e)), vim.log.levels.ERROR)
        else
          notify(i18n.t('late_done', method), vim.log.levels.INFO)
        end
      end
    end
  end)
  if not vim.wait(timeout or 5000, function()
    return done
  end, 10) then
    gave_up = true
    local message = require('satchel.i18n').t('still_saving', method)
    return { code = -32097, message = message:gsub('^Satchel: ', ''), data = { reason = 'stillWaiting' } }, nil
  end
  return err, result
end

--- `listener(method, params)` for every notification (`changed` and `resync` among them).
function M.on_notification(listener)
  table.insert(state.listeners, listener)
end

--- `starter()` each time a satchel starts (scheduled: after the request that started it is sent).
function M.on_start(starter)
  table.insert(state.starters, starter)
end

--- How long quitting waits for the server's answer to `shutdown` (ms): it comes after the answers to every
--- request sent before it, so a save on its way is done (or refused) by then.
M.quit_wait = 5000

--- Ends the server as Neovim quits (VimLeavePre): `shutdown`, whose answer is awaited while Neovim goes on
--- processing events, then `exit` and the end of its input. Its end is not waited for here: a job that ends
--- while VimLeavePre runs (jobwait(), or any wait) aborts a Neovim with a UI attached, as GUIs run it.
--- Neovim then ends its jobs as it exits, with SIGTERM, which the server takes as the end of its input:
--- it finishes what it read and ends its editing session. No server starts after this.
function M.stop()
  local job = state.job
  if job ~= nil then
    state.stopping = true
    M.request_sync('shutdown', nil, M.quit_wait, function() end)
    pcall(send, { jsonrpc = '2.0', method = 'exit' })
    pcall(vim.fn.chanclose, job, 'stdin')
  end
  state.quitting = true
end

function M.configure(options)
  state.options = options
end

function M.running()
  return state.job ~= nil
end

function M.pid()
  return state.job and vim.fn.jobpid(state.job) or nil
end

function M.last_stderr()
  return vim.deepcopy(state.stderr)
end

return M
