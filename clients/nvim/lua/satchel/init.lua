-- Satchel inside Neovim: one satchel per editor, its apps as buffers. `require('satchel').setup(opts)`.
local rpc = require('satchel.rpc')
local buffer = require('satchel.buffer')
local i18n = require('satchel.i18n')
local notify = require('satchel.notify')

local M = {}

-- Live refresh and the highlight groups do not wait for setup(): :Satchel works without it.
rpc.on_notification(function(method, params)
  if method == 'changed' then
    buffer.changed(params)
  elseif method == 'resync' then
    -- More changes at once than the server sends one by one (an import): every view may be out of date.
    buffer.resync()
  end
end)
require('satchel.highlight').setup()
-- A satchel that starts syncing an encrypted account this device has not unlocked: the person is told once.
rpc.on_start(function()
  require('satchel.encryption').watch()
end)

M.apps = { 'notes', 'note', 'reminders', 'diary', 'messages', 'board', 'search', 'export', 'import', 'device-name',
  'unlock', 'passphrase' }

local defaults = {
  cmd = nil, -- a list, as jobstart takes it: {'/path/to/satchel', '--free-limit', '10'}
  db = nil, -- the database file (--db); default: the server's own default
  locale = nil, -- en, ru or ja: the server's messages and the plugin's words
  voter = 'nvim', -- the board's voter id: one vote per post
  open_cmd = nil, -- how images are opened: {'xdg-open'} (or 'open' on macOS) by default
  keys = nil, -- the buffers' keys, by app and action: {board = {vote_up = '=', vote_down = false}}
}

local KNOWN = { cmd = true, db = true, locale = true, voter = true, open_cmd = true, keys = true }

M.options = vim.deepcopy(defaults)

local function list_of_strings(value)
  if value == nil then
    return true
  end
  if type(value) ~= 'table' or #value == 0 or not vim.tbl_islist(value) then
    return false
  end
  for _, item in ipairs(value) do
    if type(item) ~= 'string' then
      return false
    end
  end
  return true
end

--- Why `options` cannot be used, or nil.
local function problem(options)
  if type(options) ~= 'table' then
    return 'options must be a table'
  end
  for key in pairs(options) do
    if not KNOWN[key] then
      local names = vim.tbl_keys(KNOWN)
      table.sort(names)
      return ("unknown option '%s' (%s)"):format(tostring(key), table.concat(names, ', '))
    end
  end
  local ok, why = pcall(vim.validate, {
    cmd = { options.cmd, list_of_strings, "a list such as {'/path/to/satchel'}" },
    db = { options.db, 'string', true },
    locale = { options.locale, function(value)
      return value == nil or value == 'en' or value == 'ru' or value == 'ja'
    end, "'en', 'ru' or 'ja'" },
    voter = { options.voter, 'string', true },
    open_cmd = { options.open_cmd, list_of_strings, "a list such as {'xdg-open'}" },
    keys = { options.keys, 'table', true },
  })
  if not ok then
    return (tostring(why):gsub('^[^:]*%.lua:%d+: ', ''))
  end
end

--- Configures the plugin; the server starts on first use. Options that cannot be used are reported once,
--- here, and none of them is applied.
function M.setup(options)
  local why = problem(options or {})
  if why then
    notify(i18n.t('bad_setup', why), vim.log.levels.ERROR)
    return false
  end
  M.options = vim.tbl_extend('force', vim.deepcopy(defaults), options or {})
  i18n.set(M.options.locale or 'en')
  rpc.configure(M.options)
  return true
end

--- Reports a server error (already in the session's language) with vim.notify. A server that could not
--- start has been reported already (once: `rpc.request`).
function M.fail(err)
  if err.data and err.data.reason == 'notStarted' then
    return
  end
  notify('Satchel: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
end

--- `callback(result)` when the request succeeds; an error is reported. `options` as `rpc.request` takes them.
function M.call(method, params, callback, options)
  rpc.request(method, params, function(err, result)
    if err then
      M.fail(err)
    elseif callback then
      callback(result)
    end
  end, options)
end

--- Every page of a list method: `callback(items)` once the last page is in (`params` without a cursor).
function M.all(method, params, callback)
  local items = {}
  local function page(cursor)
    local request = vim.deepcopy(params)
    request.limit, request.cursor = 500, cursor
    M.call(method, request, function(result)
      vim.list_extend(items, result.items)
      if result.nextCursor ~= vim.NIL and result.nextCursor then
        page(result.nextCursor)
      else
        callback(items)
      end
    end)
  end
  page(nil)
end

local function app(name)
  return require('satchel.' .. name)
end

local commands = {
  notes = function()
    app('notes').open_list()
  end,
  note = function(args)
    if args[1] == 'new' then
      app('notes').new()
    else
      notify('Satchel: :Satchel note new', vim.log.levels.WARN)
    end
  end,
  reminders = function()
    app('reminders').open()
  end,
  diary = function(args)
    if args[1] == 'new' then
      app('diary').new()
    else
      app('diary').open_list()
    end
  end,
  messages = function()
    app('messages').open()
  end,
  board = function(args)
    app('board').open(args[1])
  end,
  search = function(args)
    app('search').run(table.concat(args, ' '))
  end,
  export = function(_, rest, bang)
    app('transfer').export(rest, bang)
  end,
  import = function(_, rest)
    app('transfer').import(rest)
  end,
  ['device-name'] = function(_, rest)
    app('device').name(rest)
  end,
  unlock = function()
    app('encryption').unlock()
  end,
  passphrase = function()
    app('encryption').change()
  end,
}

--- `:Satchel[!] {app} [args]`; without an app, a picker. An app is given its arguments as words and as the
--- text after its name (a file name may hold spaces), and whether the command had a `!`. Modifiers
--- (`:vertical`, `:tab`…) say where its buffer opens.
function M.command(arguments, bang, mods)
  local text = vim.trim(arguments or '')
  local args = vim.split(text, '%s+', { trimempty = true })
  local name = table.remove(args, 1)
  if name == nil then
    vim.ui.select({ 'notes', 'reminders', 'diary', 'messages', 'board' }, { prompt = i18n.t('pick') }, function(choice)
      if choice then
        commands[choice]({})
      end
    end)
    return
  end
  if commands[name] == nil then
    notify('Satchel: unknown app ' .. name .. ' (' .. table.concat(M.apps, ', ') .. ')', vim.log.levels.ERROR)
    return
  end
  buffer.mods = mods or ''
  buffer.guarded(commands[name])(args, vim.trim(text:sub(#name + 1)), bang)
  buffer.mods = ''
end

--- Completion of `:Satchel`: the apps, then each app's arguments (export and import: a file, then for import
--- the mode).
function M.complete(lead, line)
  local words = vim.split(line, '%s+', { trimempty = true })
  local position = line:match('%s$') and #words + 1 or #words -- the word being completed
  local candidates = M.apps
  if position == 3 and (words[2] == 'export' or words[2] == 'import') then
    return vim.fn.getcompletion(lead, 'file')
  elseif position == 4 and words[2] == 'import' then
    candidates = { 'merge', 'replace' }
  elseif position >= 3 then
    local arguments = { board = { 'votes', 'title', 'new', 'hot', 'best' }, note = { 'new' }, diary = { 'new' } }
    candidates = position == 3 and arguments[words[2]] or {}
  end
  return vim.tbl_filter(function(candidate)
    return candidate:sub(1, #lead) == lead
  end, candidates)
end

--- VimLeavePre: no satchel outlives its editor.
function M.stop()
  if package.loaded['satchel.reminders'] and rpc.running() then
    pcall(require('satchel.reminders').leave_all)
  end
  rpc.stop()
end

return M
