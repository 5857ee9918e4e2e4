-- :Satchel export {file} and :Satchel import {file} [merge|replace]: the whole database into a file and back,
-- the server's progress echoed as it works, then what was done (or the server's error).
local satchel = require('satchel')
local i18n = require('satchel.i18n')
local rpc = require('satchel.rpc')
local notify = require('satchel.notify')

local M = {}

--- The path the server is given: `~` and variables expanded, absolute (relative to the current directory).
local function absolute(file)
  return vim.fn.fnamemodify(vim.fn.expand(file), ':p')
end

--- One line in the command area that replaces the last one and never stops for a hit-enter prompt; kept in
--- |:messages| when `history`.
local function echo(text, history)
  local room = vim.v.echospace
  if vim.fn.strdisplaywidth(text) > room then
    text = vim.fn.strcharpart(text, 0, room - 1) .. '…'
  end
  vim.cmd('redraw')
  vim.api.nvim_echo({ { text } }, history, {})
end

--- `path` as a person reads it: under the home folder as `~/...`, shortened when the line would not fit.
local function shown(path, message)
  local display = vim.fn.fnamemodify(path, ':~')
  if vim.fn.strdisplaywidth(i18n.t(message, '0', display)) > vim.v.echospace then
    display = vim.fn.pathshorten(display)
  end
  return display
end

--- What is wrong with `path` as a place to export to or a file to import, in words, or nil.
local function path_problem(path, reading)
  local shown_path = vim.fn.fnamemodify(path, ':~'):gsub('(.)/$', '%1')
  local stat = vim.loop.fs_stat(path)
  if stat and stat.type == 'directory' then
    return i18n.t('not_a_file', shown_path)
  end
  if reading and not stat then
    return i18n.t('no_file', shown_path)
  end
  local folder = vim.fn.fnamemodify(path, ':h')
  if not reading and vim.fn.isdirectory(folder) == 0 then
    return i18n.t('no_folder', vim.fn.fnamemodify(folder, ':~'))
  end
end

--- How many items a result's counts add up to (images belong to photos and diary posts: not counted again).
local function items(counts)
  local total = 0
  for kind, count in pairs(type(counts) == 'table' and counts or {}) do
    if kind ~= 'images' and type(count) == 'number' then
      total = total + count
    end
  end
  return total
end

--- A progress handler echoing "Satchel: exporting… 40%" (or the count, when the server gives no total).
local function progress(word)
  return function(report)
    local done = tonumber(report.progress) or 0
    local total = tonumber(report.total)
    local amount = total and total > 0 and (math.floor(done * 100 / total) .. '%') or i18n.number(done)
    echo(i18n.t(word, amount), false)
  end
end

--- `:Satchel export {file}`: everything into `file` (written whole or not at all; mode 0600). A file that is
--- already there is replaced only with `!` (`:Satchel! export`), as `:w!` does: the server refuses it
--- otherwise (`fileExists`), even one made while the export ran.
function M.export(file, bang)
  if file == nil or file == '' then
    notify('Satchel: :Satchel export {file}', vim.log.levels.WARN)
    return
  end
  local path = absolute(file)
  local problem = path_problem(path, false)
  if problem then
    return notify(problem, vim.log.levels.ERROR)
  end
  rpc.request('export', { path = path, overwrite = bang and true or nil }, function(err, result)
    if err and type(err.data) == 'table' and err.data.reason == 'fileExists' then
      notify(i18n.t('file_exists', vim.fn.fnamemodify(path, ':~')), vim.log.levels.ERROR)
    elseif err then
      satchel.fail(err)
    else
      echo(i18n.t('exported', i18n.number(items(result.counts)), shown(result.path or path, 'exported')), true)
    end
  end, { progress = progress('exporting') })
end

--- `:Satchel import {file} [merge|replace]`: `merge` (the default) adds what is not there yet; `replace`
--- makes the database the file, after a confirmation. A failed import changes nothing.
function M.import(arguments)
  local file, mode = (arguments or ''):match('^(.-)%s+(%S+)$')
  if mode ~= 'merge' and mode ~= 'replace' then
    -- The last word is part of the file's name, unless that name is no file and the rest is one: then
    -- it was meant as a mode.
    if file and not vim.loop.fs_stat(absolute(vim.trim(arguments))) and vim.loop.fs_stat(absolute(vim.trim(file))) then
      return notify(i18n.t('bad_mode', mode), vim.log.levels.ERROR)
    end
    file, mode = arguments, 'merge'
  end
  if file == nil or vim.trim(file) == '' then
    notify('Satchel: :Satchel import {file} [merge|replace]', vim.log.levels.WARN)
    return
  end
  local path = absolute(vim.trim(file))
  local problem = path_problem(path, true)
  if problem then
    return notify(problem, vim.log.levels.ERROR)
  end
  if mode == 'replace' and vim.fn.confirm(i18n.t('replace_all', shown(path, 'replace_all')), '&Yes\n&No', 2) ~= 1 then
    return
  end
  satchel.call('import', { path = path, mode = mode }, function(result)
    echo(i18n.t('imported', i18n.number(items(result.imported)), shown(path, 'imported')), true)
  end, { progress = progress('importing') })
end

return M
