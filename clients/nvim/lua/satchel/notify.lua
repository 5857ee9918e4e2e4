-- The plugin's messages, one line each, through vim.notify. Neovim's own vim.notify writes an error as an
-- error message, which inside an autocommand (a :w is BufWriteCmd, leaving Insert mode InsertLeave) comes
-- with an "Error detected while processing…" line and a hit-enter prompt; so while vim.notify is Neovim's
-- own, an error is echoed in ErrorMsg instead (and kept in :messages). A vim.notify of the user's (a plugin
-- that shows notifications) gets every message.
return function(message, level)
  local info = debug.getinfo(vim.notify, 'S')
  if level == vim.log.levels.ERROR and info and info.source:match('vim/_editor%.lua$') then
    vim.api.nvim_echo({ { message, 'ErrorMsg' } }, true, {})
  else
    vim.notify(message, level)
  end
end
