// The notes app (being written).
import { h } from './ui.js';

export function mount(section) {
  section.append(h('p', { class: 'empty' }, 'notes'));
  return {};
}
