// @ts-check
// The line icons of the screens, drawn as inline SVG (nothing is fetched): each is a list of shapes on a
// 24×24 grid, styled by the screen's CSS through `icon` and `icon-KIND`.
const SVG = 'http://www.w3.org/2000/svg';

const path = (d, attributes = {}) => ['path', { d, ...attributes }];

const SHAPES = {
  up: [path('M12 3.5 3.5 13H9v7.5h6V13h5.5z')],
  down: [path('M12 20.5 20.5 11H15V3.5H9V11H3.5z')],
  trash: [path('M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3')],
  plus: [path('M12 5v14M5 12h14')],
  /** A filled circle with a plus cut out of it, as the original's "New Reminder" button. */
  add: [['circle', { cx: 12, cy: 12, r: 10 }], path('M12 7v10M7 12h10', { class: 'cut' })],
  /** A padlock, for the free edition's limit (an emoji would need a font the machine may not have). */
  lock: [
    ['rect', { x: 5, y: 10, width: 14, height: 11, rx: 2, fill: 'currentColor' }],
    path('M8 10V7a4 4 0 0 1 8 0v3', { fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
  ],
  /** A laptop: the device this page runs on (its name, in the header). */
  device: [['rect', { x: 4, y: 5, width: 16, height: 11, rx: 1.5 }], path('M2 19.5h20')],
  grip: [[9, 6], [15, 6], [9, 12], [15, 12], [9, 18], [15, 18]].map(([cx, cy]) => ['circle', { cx, cy, r: 1.6 }]),
  /** A picture: a photo the browser cannot draw (a HEIC) before the server has made its sizes. */
  photo: [['rect', { x: 3, y: 5, width: 18, height: 14, rx: 2 }], path('M3 16l5-5 4 4 3-3 6 6'), ['circle', { cx: 15.5, cy: 9.5, r: 1.5 }]],
};

/** An icon (one of SHAPES), hidden from assistive technology: the button it sits in carries the label. */
export function icon(kind) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const [tag, attributes] of SHAPES[kind]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) shape.setAttribute(name, value);
    svg.append(shape);
  }
  svg.classList.add('icon', `icon-${kind}`);
  return svg;
}
