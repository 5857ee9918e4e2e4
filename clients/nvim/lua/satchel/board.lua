-- The board: posts with their votes; `+`/`-` vote up and down (one vote per post for this editor's voter);
-- `s` cycles the five sorts (or :Satchel board {votes|title|new|hot|best}).
local satchel = require('satchel')
local buffer = require('satchel.buffer')
local notify = require('satchel.notify')

local M = {}
local NAME = 'satchel://board'
local SORTS = { 'votes', 'title', 'new', 'hot', 'best' }
local ns = vim.api.nvim_create_namespace('satchel_board')

local function line_of(post)
  local mark = ({ up = '▲', down = '▼' })[post.myVote] or ' '
  return ('%s %+5d  %s'):format(mark, post.votes, post.title)
end

local function render(bufnr)
  local sort = vim.b[bufnr].satchel_sort or 'votes'
  satchel.all('board.list', { sort = sort, voter = satchel.options.voter }, function(posts)
    local ids = vim.tbl_map(function(post)
      return post.id
    end, posts)
    vim.b[bufnr].satchel_ids = ids
    buffer.set_lines(bufnr, vim.tbl_map(line_of, posts), ids)
    vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
    vim.api.nvim_buf_set_extmark(bufnr, ns, 0, 0, { virt_text = { { 'sort: ' .. sort, 'SatchelHint' } }, virt_text_pos = 'right_align' })
  end)
end

local function vote(bufnr, direction)
  local id = (vim.b[bufnr].satchel_ids or {})[vim.api.nvim_win_get_cursor(0)[1]]
  if id then
    satchel.call('board.vote', { id = id, direction = direction, voter = satchel.options.voter }, function()
      render(bufnr)
    end)
  end
end

function M.open(sort)
  if sort and not vim.tbl_contains(SORTS, sort) then
    return notify('Satchel: the board sorts are ' .. table.concat(SORTS, ', '), vim.log.levels.ERROR)
  end
  local bufnr, new = buffer.view(NAME, 'satchel-board', false)
  if sort then
    vim.b[bufnr].satchel_sort = sort
  end
  if new then
    buffer.map(bufnr, 'board.vote_up', '+', function()
      vote(bufnr, 'up')
    end, 'Vote up')
    buffer.map(bufnr, 'board.vote_down', '-', function()
      vote(bufnr, 'down')
    end, 'Vote down')
    buffer.map(bufnr, 'board.next_sort', 's', function()
      local current = vim.b[bufnr].satchel_sort or 'votes'
      for index, name in ipairs(SORTS) do
        if name == current then
          vim.b[bufnr].satchel_sort = SORTS[index % #SORTS + 1]
        end
      end
      render(bufnr)
    end, 'Next sort')
    buffer.map(bufnr, 'board.open', '<CR>', function()
      local id = (vim.b[bufnr].satchel_ids or {})[vim.api.nvim_win_get_cursor(0)[1]]
      if id then
        vim.cmd('edit satchel://board/' .. id)
      end
    end, 'Open the post')
    buffer.map_delete(bufnr, 'board', 'board.delete', function()
      return buffer.id_at(bufnr, vim.api.nvim_win_get_cursor(0)[1])
    end, function()
      return vim.trim(vim.api.nvim_get_current_line():sub(10))
    end, function()
      render(bufnr)
    end)
    buffer.register(bufnr, { 'board' }, render)
  end
  render(bufnr)
end

--- satchel://board/<id>: one post.
function M.read(bufnr, id)
  satchel.call('board.get', { id = id, voter = satchel.options.voter }, function(post)
    buffer.show_item(bufnr, { post.title, '', ('votes %+d (▲ %d ▼ %d)'):format(post.votes, post.ups, post.downs) })
  end)
end

return M
