// @ts-check
// The shapes the screens share, for the type checker (`tsc --checkJs`, run by scripts/test): what app.js
// gives every screen, and what a screen gives back.

/**
 * What app.js gives every screen's `mount`.
 * @typedef {object} Context
 * @property {import('./rpc.js').Rpc} rpc The page's connection.
 * @property {(domain: string, id: string) => unknown} openItem Shows the app of `domain` with the item `id`.
 */

/**
 * A committed change, as `changed` notifications carry it.
 * @typedef {object} ChangeEvent
 * @property {number} seq
 * @property {string} at
 * @property {string} domain
 * @property {string} kind
 * @property {string} id
 * @property {any} entity
 */

/**
 * What a screen's `mount` gives back: the page calls each when it applies.
 * @typedef {object} Screen
 * @property {() => unknown} [show] The screen's tab was selected.
 * @property {() => void} [hide] Another tab was selected: stop waiting for what only this one shows.
 * @property {() => unknown} [refresh] The connection is back: read again what is shown.
 * @property {() => void} [translate] The page's language changed.
 * @property {(event: ChangeEvent) => void} [changed] Something changed, here or in another process.
 * @property {() => void} [resync] Changes were skipped (`resync`: a large import, here or elsewhere): read
 *   again what is shown, as after a change of each of its domains, keeping what is being typed.
 * @property {(id: string, domain: string) => unknown} [open] Show one item (from search).
 */

export {};
