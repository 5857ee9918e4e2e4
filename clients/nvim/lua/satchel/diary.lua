-- The diary ("Moments"): previews newest first; <CR> opens the whole post with its images listed (size,
-- dimensions; `gx` on an image line opens it with the system's viewer). `:Satchel diary new` and :w create.
local satchel = require('satchel')
local rpc = require('satchel.rpc')
local buffer = require('satchel.buffer')
local i18n = require('satchel.i18n')
local notify = require('satchel.notify')

local M = {}
local NAME = 'satchel://diary'
local starts_of = {} -- bufnr -> {[line where a post starts] = its id}

local function human(bytes)
  if bytes >= 1048576 then
    return ('%.1f MB'):format(bytes / 1048576)
  elseif bytes >= 1024 then
    return ('%.1f KB'):format(bytes / 1024)
  end
  return bytes .. ' B'
end

local function render_list(bufnr)
  satchel.all('diary.list', {}, function(previews)
    local lines, starts, ids = {}, {}, {}
    for _, preview in ipairs(previews) do
      starts[#lines + 1] = preview.id
      local photos = preview.imageCount > 0 and ('  ' .. i18n.t('photos', preview.imageCount)) or ''
      table.insert(lines, preview.displayDate .. photos)
      for _, text in ipairs(vim.split(preview.excerpt, '\n', { plain = true })) do
        table.insert(lines, '  ' .. text)
      end
      table.insert(lines, '')
      while #ids < #lines do
        table.insert(ids, preview.id)
      end
    end
    starts_of[bufnr] = starts
    buffer.set_lines(bufnr, lines, ids)
  end)
end

local function post_at_cursor(bufnr)
  local starts = starts_of[bufnr] or {}
  for line = vim.api.nvim_win_get_cursor(0)[1], 1, -1 do
    if starts[line] then
      return starts[line]
    end
  end
end

function M.open_list()
  local bufnr, new = buffer.view(NAME, 'satchel-diary', false)
  if new then
    buffer.map(bufnr, 'diary.open', '<CR>', function()
      local id = post_at_cursor(bufnr)
      if id then
        vim.cmd('edit satchel://diary/' .. id)
      end
    end, 'Open the post')
    buffer.map_delete(bufnr, 'diary', 'diary.delete', function()
      return post_at_cursor(bufnr)
    end, function(id)
      for line, start in pairs(starts_of[bufnr] or {}) do
        if start == id then
          return vim.api.nvim_buf_get_lines(bufnr, line - 1, line, false)[1]
        end
      end
      return id
    end, function()
      render_list(bufnr)
    end)
    buffer.register(bufnr, { 'diary' }, render_list)
  end
  render_list(bufnr)
end

--- Opens a stored image with the system's viewer (`open_cmd`, else xdg-open / open). The bytes are decoded
--- by vim.base64 (Neovim 0.10+) or by coreutils' base64.
function M.open_image(id)
  satchel.call('images.get', { id = id }, function(result)
    local extension = result.image.mimeType:match('/(%w+)$') or 'img'
    local path = vim.fn.tempname() .. '.' .. extension
    local opener = vim.deepcopy(satchel.options.open_cmd or { vim.fn.has('mac') == 1 and 'open' or 'xdg-open' })
    if vim.fn.executable(opener[1]) ~= 1 then
      return notify(i18n.t('no_opener', opener[1]), vim.log.levels.ERROR)
    end
    table.insert(opener, path)
    local function view()
      vim.fn.jobstart(opener, { detach = true })
    end
    if vim.base64 then
      local file = assert(io.open(path, 'wb'))
      file:write(vim.base64.decode(result.data))
      file:close()
      return view()
    end
    local encoded = path .. '.b64'
    vim.fn.writefile({ result.data }, encoded)
    vim.fn.jobstart({ 'sh', '-c', 'base64 -d < "$1" > "$2"', 'sh', encoded, path }, {
      on_exit = function(_, code)
        os.remove(encoded)
        if code == 0 then
          view()
        end
      end,
    })
  end)
end

local function post_lines(post)
  local lines = { post.displayDate }
  for index, image in ipairs(post.images) do
    table.insert(lines, ('[%d] %s %dx%d %s  (gx: open)'):format(index, image.mimeType, image.width, image.height, human(image.byteSize)))
  end
  table.insert(lines, '')
  vim.list_extend(lines, vim.split(post.text ~= vim.NIL and post.text or '', '\n', { plain = true }))
  return lines
end

--- satchel://diary/<id>: the whole post.
function M.read(bufnr, id)
  local err, post = rpc.request_sync('diary.get', { id = id })
  if err then
    return satchel.fail(err)
  end
  buffer.show_item(bufnr, post_lines(post))
  vim.b[bufnr].satchel_images = vim.tbl_map(function(image)
    return image.id
  end, post.images)
  buffer.map(bufnr, 'diary.open_image', 'gx', function()
    local line = vim.api.nvim_get_current_line()
    local index = tonumber(line:match('^%[(%d+)%]'))
    local images = vim.b[bufnr].satchel_images or {}
    if index and images[index] then
      M.open_image(images[index])
    end
  end, 'Open the image')
end

--- :Satchel diary new: an empty buffer; :w posts it (dated now) and shows the post.
function M.new()
  local draft = vim.fn.bufnr('^satchel://diary/new$')
  if draft ~= -1 then
    return vim.api.nvim_set_current_buf(draft) -- the draft already begun
  end
  local bufnr = buffer.new_buffer()
  vim.api.nvim_buf_set_name(bufnr, 'satchel://diary/new')
  vim.bo[bufnr].buftype = 'acwrite'
  vim.bo[bufnr].swapfile = false
  buffer.autocmd('BufWriteCmd', bufnr, function()
    local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
    local err, post = rpc.request_sync('diary.create', { text = text })
    if err then
      return satchel.fail(err) -- the buffer keeps its text
    end
    vim.bo[bufnr].modified = false
    vim.schedule(function() -- outside this autocommand, so that the post's BufReadCmd runs
      vim.cmd('edit satchel://diary/' .. post.id)
      vim.api.nvim_buf_delete(bufnr, { force = true })
    end)
  end)
end

--- satchel://photos/<id> (a search hit on a photo caption): the caption and the image line.
function M.read_photo(bufnr, id)
  local err, photo = rpc.request_sync('photos.get', { id = id })
  if err then
    return satchel.fail(err)
  end
  local image = photo.image
  buffer.show_item(bufnr, { photo.caption ~= vim.NIL and photo.caption or '', ('[1] %s %dx%d %s  (gx: open)'):format(image.mimeType, image.width, image.height, human(image.byteSize)) })
  buffer.map(bufnr, 'diary.open_image', 'gx', function()
    M.open_image(image.id)
  end, 'Open the image')
end

return M
