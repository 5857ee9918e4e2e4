-- Satchel's highlight groups. The plugin's own are links (`default`: a colorscheme or the user may define
-- them first); a note's colour is a group of its own, SatchelNote<RRGGBB>, whose text is black or white,
-- whichever reads better on it (WCAG contrast), with the nearest 256-colour cells for terminals without
-- 'termguicolors'. `:colorscheme` clears every group: they are all defined again on ColorScheme.
local M = {}

--- The plugin's groups and what they link to by default.
M.links = {
  SatchelHint = 'Comment', -- "No notes", "sort: votes"
  SatchelDone = 'Comment', -- a reminder that is done
  SatchelMemo = 'Comment', -- a reminder's memo
  SatchelMerged = 'DiffAdd', -- in a note, the words a merge brought in from elsewhere
}

local notes = {} -- the note colours defined so far: hex -> true

local DARK, LIGHT = '#1c1c1e', '#ffffff'

local function channels(hex)
  return tonumber(hex:sub(2, 3), 16), tonumber(hex:sub(4, 5), 16), tonumber(hex:sub(6, 7), 16)
end

local function luminance(hex)
  local function linear(value)
    value = value / 255
    return value <= 0.03928 and value / 12.92 or ((value + 0.055) / 1.055) ^ 2.4
  end
  local r, g, b = channels(hex)
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
end

--- The WCAG contrast ratio of two colours (#RRGGBB), 1 to 21.
function M.contrast(first, second)
  local a, b = luminance(first), luminance(second)
  return (math.max(a, b) + 0.05) / (math.min(a, b) + 0.05)
end

--- The text colour for a background: dark or white, whichever contrasts more.
function M.text_on(hex)
  return M.contrast(hex, DARK) >= M.contrast(hex, LIGHT) and DARK or LIGHT
end

--- The xterm 256-colour index nearest to #RRGGBB (the 6x6x6 cube or the grey ramp).
function M.cterm(hex)
  local r, g, b = channels(hex)
  local levels = { 0, 95, 135, 175, 215, 255 }
  local function cube_index(value)
    local best = 1
    for index, level in ipairs(levels) do
      if math.abs(level - value) < math.abs(levels[best] - value) then
        best = index
      end
    end
    return best - 1
  end
  local ri, gi, bi = cube_index(r), cube_index(g), cube_index(b)
  local cube = { levels[ri + 1], levels[gi + 1], levels[bi + 1] }
  local grey_index = math.max(0, math.min(23, math.floor(((r + g + b) / 3 - 8) / 10 + 0.5)))
  local grey = 8 + 10 * grey_index
  local function distance(x, y, z)
    return (r - x) ^ 2 + (g - y) ^ 2 + (b - z) ^ 2
  end
  if distance(grey, grey, grey) < distance(cube[1], cube[2], cube[3]) then
    return 232 + grey_index
  end
  return 16 + 36 * ri + 6 * gi + bi
end

local function define_note(hex)
  local text = M.text_on(hex)
  vim.api.nvim_set_hl(0, 'SatchelNote' .. hex:sub(2), {
    bg = hex, fg = text, ctermbg = M.cterm(hex), ctermfg = text == LIGHT and 231 or 234,
  })
end

--- The group of a note colour (#RRGGBB), defined on first use.
function M.note(hex)
  hex = hex:upper()
  if not notes[hex] then
    notes[hex] = true
    define_note(hex)
  end
  return 'SatchelNote' .. hex:sub(2)
end

local function define_all()
  for name, target in pairs(M.links) do
    vim.api.nvim_set_hl(0, name, { link = target, default = true })
  end
  for hex in pairs(notes) do
    define_note(hex)
  end
end

--- Defines the groups now and again after every :colorscheme.
function M.setup()
  define_all()
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('satchel_highlight', { clear = true }),
    callback = define_all,
  })
end

return M
