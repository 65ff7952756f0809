// The websocket to the bot (docs/protocol.md): hello with the token, replies matched by id, events in
// seq order, and reconnection with the last seq seen after a dropped connection.

const PROTOCOL = 1;
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];
const FINAL_CLOSE_CODES = new Set([1000, 4000]); // game over; refused hello

export class Connection {
  /**
   * `handlers`: welcome(message), event(message), status(text, level), fatal(text).
   */
  constructor(url, token, handlers) {
    this.url = url;
    this.token = token;
    this.handlers = handlers;
    this.seq = null;
    this.nextId = 1;
    this.pending = new Map();
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
  }

  open() {
    this.handlers.status(this.seq === null ? "Connecting…" : "Reconnecting…", "busy");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, token: this.token, last_seq: this.seq }));
    });
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", (close) => this.closed(socket, close.code));
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === "welcome") {
      this.attempt = 0;
      this.seq = message.seq;
      // A finished game's welcome carries its `final`: the server closes, with nothing more to come.
      if (message.final) this.stopped = true;
      this.handlers.status(message.final ? "Game over" : "Live", "ok");
      this.handlers.welcome(message);
    } else if (message.type === "reply") {
      this.reply(message);
    } else if (typeof message.seq === "number") {
      if (this.seq !== null && message.seq <= this.seq) return;
      this.seq = message.seq;
      this.handlers.event(message);
      if (message.type === "game_over") {
        this.stopped = true;
        this.handlers.status("Game over", "ok");
      }
    }
  }

  reply(message) {
    const waiting = this.pending.get(message.id);
    if (waiting) {
      this.pending.delete(message.id);
      waiting(message);
    } else if (!message.ok && message.id === null) {
      // A refused hello: the token is bad, the game is gone, or too many connections.
      this.stopped = true;
      this.handlers.fatal(message.error.message);
    }
  }

  closed(socket, code) {
    if (socket !== this.socket) return;
    for (const waiting of this.pending.values()) {
      waiting({ ok: false, error: { code: "disconnected", message: "the connection dropped: try again" } });
    }
    this.pending.clear();
    if (this.stopped || FINAL_CLOSE_CODES.has(code)) {
      if (!this.stopped) this.handlers.status("Disconnected", "error");
      return;
    }
    const delay = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)];
    this.attempt += 1;
    this.handlers.status("Reconnecting…", "busy");
    setTimeout(() => this.open(), delay);
  }

  /** Send a command; resolves with its reply ({ok, result} or {ok: false, error}). */
  send(type, fields = {}) {
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        resolve({ ok: false, error: { code: "disconnected", message: "not connected: wait a moment and try again" } });
        return;
      }
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ type, id, ...fields }));
    });
  }
}
