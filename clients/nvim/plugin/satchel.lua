-- :Satchel {app}, the satchel:// buffers, and the server's end when Neovim quits.
if vim.g.loaded_satchel then
  return
end
vim.g.loaded_satchel = true

vim.api.nvim_create_user_command('Satchel', function(command)
  require('satchel').command(command.args, command.bang, command.mods)
end, {
  nargs = '*',
  bang = true,
  complete = function(lead, line)
    return require('satchel').complete(lead, line)
  end,
  desc = 'Satchel: notes, reminders, diary, messages, board, search, export, import, device-name, unlock, passphrase',
})

local group = vim.api.nvim_create_augroup('satchel', { clear = true })

vim.api.nvim_create_autocmd('BufReadCmd', {
  group = group,
  pattern = 'satchel://*',
  callback = function(event)
    require('satchel.items').read(event.buf, event.match)
  end,
})

vim.api.nvim_create_autocmd('VimLeavePre', {
  group = group,
  callback = function()
    if package.loaded['satchel.rpc'] then
      require('satchel').stop()
    end
  end,
})
