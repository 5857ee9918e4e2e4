// @ts-check
// The colour of a note, as the original picks it: a palette (white first, the default), and a custom cell that
// opens an HSB picker holding the exact hue, saturation and brightness the server keeps.
import { extend, t } from './i18n.js';
import { h } from './ui.js';

extend({
  en: {
    colour: 'Colour', custom: 'Custom colour', hue: 'Hue', saturation: 'Saturation', brightness: 'Brightness',
    white: 'White', red: 'Red', orange: 'Orange', yellow: 'Yellow', green: 'Green', blue: 'Blue', purple: 'Purple',
  },
  ru: {
    colour: 'Цвет', custom: 'Свой цвет', hue: 'Тон', saturation: 'Насыщенность', brightness: 'Яркость',
    white: 'Белый', red: 'Красный', orange: 'Оранжевый', yellow: 'Жёлтый', green: 'Зелёный', blue: 'Синий',
    purple: 'Фиолетовый',
  },
  ja: {
    colour: '色', custom: 'カスタムカラー', hue: '色相', saturation: '彩度', brightness: '明度', white: '白', red: '赤',
    orange: 'オレンジ', yellow: '黄', green: '緑', blue: '青', purple: '紫',
  },
});

// The palette of the original: white first (the default), then colours; the last cell is the custom one.
const PALETTE = [
  ['white', { hue: 0, saturation: 0, brightness: 1 }],
  ['red', { hue: 0, saturation: 0.55, brightness: 1 }],
  ['orange', { hue: 0.08, saturation: 0.6, brightness: 1 }],
  ['yellow', { hue: 0.15, saturation: 0.55, brightness: 1 }],
  ['green', { hue: 0.33, saturation: 0.4, brightness: 1 }],
  ['blue', { hue: 0.58, saturation: 0.45, brightness: 1 }],
  ['purple', { hue: 0.75, saturation: 0.4, brightness: 1 }],
];

/** A new note's colour: white, as in the original. */
export const DEFAULT_COLOUR = PALETTE[0][1];

/** Standard HSV to #RRGGBB, for showing a colour the user is still choosing (the server derives `hex`). */
export function hexOf({ hue, saturation, brightness }) {
  const h6 = (hue % 1) * 6;
  const c = brightness * saturation;
  const x = c * (1 - Math.abs((h6 % 2) - 1));
  const m = brightness - c;
  const [r, g, b] = [[c, x, 0], [x, c, 0], [0, c, x], [0, x, c], [x, 0, c], [c, 0, x]][Math.floor(h6) % 6];
  return `#${[r, g, b].map((v) => Math.round((v + m) * 255).toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}

/** WCAG's relative luminance of #RRGGBB. */
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours (#RRGGBB), from 1 to 21. */
export function contrast(first, second) {
  const [dark, light] = [luminance(first), luminance(second)].sort((a, b) => a - b);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour that reads best on `background` (#RRGGBB): near-black or white, by WCAG contrast; on the middle
 * tones where neither reaches 4.5:1 (a blue at hue 0.55, brightness 0.75), black, which always does there.
 */
export function textOn(background) {
  const [dark, light] = [contrast(background, DARK_TEXT), contrast(background, '#FFFFFF')];
  if (Math.max(dark, light) < 4.5) return '#000000';
  return dark >= light ? DARK_TEXT : '#FFFFFF';
}
const DARK_TEXT = '#1C1C1E';

const sameColour = (a, b) => a.hue === b.hue && a.saturation === b.saturation && a.brightness === b.brightness;

/** The palette: white by default, six colours and a custom cell; the HSB picker opens where it was left
 * (the note's exact hue, saturation and brightness: hue 1 stays 1, hue survives saturation 0). */
export function colourPicker(initial) {
  let usingCustom = !PALETTE.some(([, colour]) => sameColour(colour, initial));
  let lastCustom = { ...initial };
  let chosen = { ...initial };
  const cells = h('div', { class: 'palette', role: 'radiogroup', 'aria-label': t('colour') });
  const field = h('div', { class: 'hs-field', 'aria-hidden': 'true' }, h('span', { class: 'hs-knob' }));
  const preview = h('span', { class: 'hsb-preview', 'aria-hidden': 'true' });
  const sliders = h('div', { class: 'hsb' }, h('div', { class: 'hsb-top' }, field, preview));
  const ranges = {};
  const setCustom = (colour) => {
    lastCustom = colour;
    chosen = { ...colour };
    usingCustom = true;
    draw();
  };
  for (const component of ['hue', 'saturation', 'brightness']) {
    const range = h('input', { type: 'range', min: 0, max: 1, step: 'any', name: component, 'aria-label': t(component) });
    range.addEventListener('input', () => setCustom({ ...lastCustom, [component]: Number(range.value) }));
    ranges[component] = range;
    sliders.append(h('label', { class: 'field' }, h('span', {}, t(component)), range));
  }
  field.addEventListener('pointerdown', (event) => {
    const pick = (e) => {
      const box = field.getBoundingClientRect();
      const clamp = (v) => Math.min(1, Math.max(0, v));
      setCustom({ ...lastCustom, hue: clamp((e.clientX - box.left) / box.width), saturation: clamp(1 - (e.clientY - box.top) / box.height) });
    };
    pick(event);
    field.setPointerCapture(event.pointerId);
    field.onpointermove = pick;
    field.onpointerup = () => { field.onpointermove = null; };
  });
  function cell(name, colour, isCustom) {
    const selected = isCustom ? usingCustom : !usingCustom && sameColour(colour, chosen);
    return h('button', {
      type: 'button', role: 'radio', 'aria-checked': String(selected), 'aria-label': name, tabindex: selected ? '0' : '-1',
      class: `cell${isCustom ? ' custom' : ''}`, style: { '--cell': hexOf(colour), '--cell-text': textOn(hexOf(colour)) }, dataset: { colour: isCustom ? 'custom' : name },
      onclick: () => {
        if (isCustom) setCustom(lastCustom);
        else {
          chosen = { ...colour };
          usingCustom = false;
          draw();
        }
        cells.querySelector('[aria-checked="true"]')?.focus();
      },
    }, selected ? '✓' : '');
  }
  // One Tab stop for the group; the arrow keys move the choice, as in any radio group.
  cells.addEventListener('keydown', (event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const all = [...cells.querySelectorAll('[role="radio"]')];
    const at = all.indexOf(document.activeElement);
    all[(at + step + all.length) % all.length]?.click();
  });
  function draw() {
    cells.replaceChildren(...PALETTE.map(([name, colour]) => cell(t(name), colour, false)), cell(t('custom'), lastCustom, true));
    sliders.hidden = !usingCustom;
    for (const [component, range] of Object.entries(ranges)) {
      if (Number(range.value) !== lastCustom[component]) range.value = String(lastCustom[component]);
    }
    preview.style.background = hexOf(lastCustom);
    field.style.setProperty('--brightness', lastCustom.brightness);
    field.firstChild.style.left = `${lastCustom.hue * 100}%`;
    field.firstChild.style.top = `${(1 - lastCustom.saturation) * 100}%`;
  }
  draw();
  return {
    element: h('fieldset', { class: 'colours' }, h('legend', {}, t('colour')), cells, sliders),
    value: () => ({ ...chosen }),
    /** Shows `colour` as chosen (another version of the note taken instead). */
    set(colour) {
      const exact = { hue: colour.hue, saturation: colour.saturation, brightness: colour.brightness };
      usingCustom = !PALETTE.some(([, each]) => sameColour(each, exact));
      if (usingCustom) lastCustom = { ...exact };
      chosen = { ...exact };
      draw();
    },
  };
}
