// @ts-check
// The page's one connection: JSON-RPC 2.0 over the bridge's WebSocket, to a satchel of its own.

/** An error answer from the server: `code`, `message` (in the session's language), `data`, `reason`. */
export class RpcError extends Error {
  constructor({ code, message, data }) {
    super(message);
    this.code = code;
    this.data = data ?? null;
    this.reason = data?.reason ?? null;
  }
}

/**
 * Calls go out with ids and come back as promises; `changed` notifications go to `onChange` listeners, a
 * `resync` (the server skipped more than 500 changes: what is shown may be out of date) to `onResync`
 * listeners, the bridge's status (`ready`, `restarting`, a lost connection) to `onStatus` listeners, and a
 * call's `notifications/progress` to the `onProgress` it was made with. A dropped socket is opened again;
 * calls made meanwhile wait for it.
 */
export class Rpc {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.pending = new Map();
    this.progress = new Map(); // progressToken -> the onProgress of the call in flight that sent it
    this.queue = [];
    /** @type {string | null} names this page to the bridge's `POST /uploads` (from its `ready` status) */
    this.page = null;
    this.changeListeners = new Set();
    this.resyncListeners = new Set();
    this.statusListeners = new Set();
    this.socket = null;
    this.retry = 250;
    this.open();
  }

  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => {
      for (const { reject } of this.pending.values()) {
        reject(new RpcError({ code: -32098, message: 'The connection to Satchel was lost', data: { reason: 'disconnected' } }));
      }
      this.pending.clear();
      this.progress.clear();
      this.queue = []; // rejected above: a call the page was told failed must not run later
      this.page = null;
      this.ready = false;
      if (!this.expired) this.emitStatus({ state: 'disconnected' });
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 4000);
      this.checkToken();
    });
  }

  /** A bridge started again has a new token: this page's is refused (403) and only its new URL works. */
  async checkToken() {
    try {
      const answer = await fetch(location.pathname, { method: 'HEAD', cache: 'no-store' });
      if (answer.status === 403) {
        this.expired = true;
        this.emitStatus({ state: 'expired' });
      }
    } catch {
      // no bridge at all (yet): the reconnection goes on
    }
  }

  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (message.method === 'changed') {
      for (const listener of this.changeListeners) listener(message.params);
    } else if (message.method === 'resync') {
      for (const listener of this.resyncListeners) listener(message.params);
    } else if (message.method === 'notifications/progress') {
      this.progress.get(message.params?.progressToken)?.(message.params);
    } else if (message.method === 'bridge/status') {
      if (message.params?.state === 'ready') {
        this.retry = 250;
        const waiting = this.queue.splice(0);
        for (const line of waiting) this.socket.send(line);
      }
      this.ready = message.params?.state === 'ready';
      if (this.ready) this.page = message.params?.page ?? null; // names this page to POST /uploads
      this.emitStatus(message.params ?? {});
    } else if ('id' in message && this.pending.has(message.id)) {
      const { resolve, reject, token } = this.pending.get(message.id);
      this.pending.delete(message.id);
      this.progress.delete(token);
      if (message.error) reject(new RpcError(message.error));
      else resolve(message.result);
    }
  }

  /**
   * Sends `method` with `params`; resolves to its result or rejects with an `RpcError`. With `onProgress`,
   * the request carries `_meta.progressToken` and `onProgress({progress, total, message})` is called with
   * each progress notification the server sends for it, until the answer. Answers are matched by id: a
   * call that waits on the server's network (`messages.loadMore`) is answered after later ones. With
   * `signal`, aborting it rejects the call with the signal's reason (an `AbortError`) and tells the server
   * to stop waiting for it (`notifications/cancelled`).
   */
  /**
   * @param {string} method
   * @param {object} [params]
   * @param {{onProgress?: (progress: any) => void, signal?: AbortSignal}} [options]
   * @returns {Promise<any>}
   */
  call(method, params, options = {}) {
    const { onProgress, signal } = options;
    const id = this.nextId++;
    const token = onProgress ? `progress-${id}` : null;
    if (token) {
      params = { ...params, _meta: { progressToken: token } };
      this.progress.set(token, onProgress);
    }
    const line = JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, token });
      this.send(line);
      signal?.addEventListener('abort', () => {
        if (!this.pending.has(id)) return; // answered already
        this.pending.delete(id);
        this.progress.delete(token);
        this.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'aborted' } }));
        reject(signal.reason);
      }, { once: true });
    });
  }

  /** Writes one line now, or once the connection is ready. */
  send(line) {
    if (this.ready && this.socket.readyState === WebSocket.OPEN) this.socket.send(line);
    else this.queue.push(line);
  }

  onChange(listener) { this.changeListeners.add(listener); }

  /** `listener({since, cursor, seq})` when changes were skipped (a large import): read again what is shown. */
  onResync(listener) { this.resyncListeners.add(listener); }

  onStatus(listener) { this.statusListeners.add(listener); }

  emitStatus(status) {
    for (const listener of this.statusListeners) listener(status);
  }
}
