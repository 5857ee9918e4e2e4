// @ts-check
// Dates and times in one voice: each kind has one format, written as the page's language writes it
// (`Intl.DateTimeFormat`), in every app. In English "Nov 27, 2026, 7:20 PM", in Russian "27 нояб. 2026 г., 19:20",
// in Japanese "2026/11/27 19:20".
import { language } from './i18n.js';

/** @type {Map<string, Intl.DateTimeFormat>} */
const made = new Map();
/** @param {Intl.DateTimeFormatOptions} options */
function format(options) {
  const key = JSON.stringify([language(), options]);
  if (!made.has(key)) made.set(key, new Intl.DateTimeFormat(language(), options));
  return /** @type {Intl.DateTimeFormat} */ (made.get(key));
}

/** A moment: when a post or a message was written, a deadline. */
export const stamp = (/** @type {string} */ iso) => format({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** The time of day alone, beside a message under its day's heading. */
export const time = (/** @type {string} */ iso) => format({ timeStyle: 'short' }).format(new Date(iso));

/** The local day of `iso` as a number that compares (and counts) days. */
const dayNumber = (/** @type {Date} */ date) => Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 86400000;

/** Whether two instants fall on one local day. */
export const sameDay = (/** @type {string} */ a, /** @type {string} */ b) => dayNumber(new Date(a)) === dayNumber(new Date(b));

/**
 * A day's heading: "Today", "Yesterday" (the language's own words), the weekday and date in this year, the
 * whole date before it; a capital first, as a heading starts ("Вчера", "Вторник, 8 сентября").
 * @param {string} iso
 * @param {Date} [now]
 */
export function day(iso, now = new Date()) {
  const date = new Date(iso);
  const ago = dayNumber(now) - dayNumber(date);
  const words = ago === 0 || ago === 1
    ? new Intl.RelativeTimeFormat(language(), { numeric: 'auto' }).format(-ago, 'day')
    : format(date.getFullYear() === now.getFullYear()
      ? { weekday: 'long', month: 'long', day: 'numeric' }
      : { dateStyle: 'long' }).format(date);
  return words.charAt(0).toLocaleUpperCase(language()) + words.slice(1);
}
