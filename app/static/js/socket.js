// The live table connection: hello with `since`, contiguous versions, reconnect with backoff.
// A dropped socket (sleep, network change, server restart) reconnects by itself and asks for
// the missing updates; a gap in versions forces the same resync.

const MAX_DELAY = 8000;
const PING_EVERY = 15000;
const PONG_WITHIN = 10000;

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {() => string | null} token  read at each (re)connect
   * @param {object} on  callbacks: welcome, update, table, ack, error, status, fatal, and
   *   greeted (the first welcome of each connection) and chat (every `chat*` frame)
   */
  constructor(tableId, token, on) {
    this.tableId = tableId;
    this.token = token;
    this.on = on;
    this.version = null;
    this.socket = null;
    this.stopped = false;
    this.attempt = 0;
    this.nextId = 1;
    this.timers = {};
    this.wake = () => {
      if (!this.stopped && !this.isOpen()) this.reconnectNow();
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN && this.greeted;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    Object.values(this.timers).forEach(clearTimeout);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    if (this.socket) this.socket.close(1000, "bye");
    this.socket = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.tableId}`);
    this.socket = socket;
    this.greeted = false;
    socket.onopen = () => {
      // A spectator of a private table shows the invite code its link carries.
      const invite = new URLSearchParams(location.search).get("invite");
      const hello = { type: "hello", token: this.token(), since: this.version };
      socket.send(JSON.stringify(invite ? { ...hello, invite } : hello));
    };
    socket.onmessage = (message) => {
      if (socket === this.socket) this.receive(JSON.parse(message.data));
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      clearTimeout(this.timers.ping);
      clearTimeout(this.timers.pong);
      this.greeted = false;
      if (this.stopped) return;
      // 4004 no such table, 4001 a bad token, 4005 not allowed to watch: trying again changes
      // nothing, so the page says why instead.
      if (event.code === 4004 || event.code === 4001 || event.code === 4005) {
        this.stopped = true;
        this.on.fatal(event.code);
        return;
      }
      this.on.status("down");
      this.schedule();
    };
  }

  schedule() {
    const delay = Math.min(MAX_DELAY, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    clearTimeout(this.timers.retry);
    this.timers.retry = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    clearTimeout(this.timers.retry);
    const old = this.socket;
    this.socket = null;
    if (old && old.readyState <= WebSocket.OPEN) old.close(1000, "resync");
    this.open();
  }

  receive(frame) {
    switch (frame.type) {
      case "welcome": {
        const first = !this.greeted;
        this.greeted = true;
        this.attempt = 0;
        this.version = frame.version;
        this.keepAlive();
        this.on.status("up");
        this.on.welcome(frame);
        if (first && this.on.greeted) this.on.greeted();
        break;
      }
      case "update":
        if (this.version !== null && frame.version <= this.version) return; // already have it
        if (this.version !== null && frame.version !== this.version + 1) {
          this.reconnectNow(); // a gap: ask again from what we have
          return;
        }
        this.version = frame.version;
        this.on.update(frame);
        break;
      case "table":
        this.on.table(frame.table);
        break;
      case "ack":
        this.on.ack(frame);
        break;
      case "pong":
        clearTimeout(this.timers.pong);
        break;
      case "error":
        this.on.error(frame);
        break;
      case "rematch":
        if (this.on.rematch) this.on.rematch(frame);
        break;
      case "presence":
        if (this.on.presence) this.on.presence(frame);
        break;
      default:
        // Table chat: frames of its own with their own sequence, never a table version.
        if (frame.type.startsWith("chat") && this.on.chat) this.on.chat(frame);
        else if (frame.type === "clock" && this.on.clock) this.on.clock(frame);
        else if (frame.type === "aborted" && this.on.aborted) this.on.aborted(frame);
        break;
    }
  }

  keepAlive() {
    clearTimeout(this.timers.ping);
    this.timers.ping = setTimeout(() => {
      if (!this.isOpen()) return;
      this.socket.send(JSON.stringify({ type: "ping", id: `p${this.nextId++}` }));
      this.timers.pong = setTimeout(() => this.reconnectNow(), PONG_WITHIN);
      this.keepAlive();
    }, PING_EVERY);
  }

  /** Send any other message (the chat's); false when the socket is not ready. */
  send(message) {
    if (!this.isOpen()) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Send an action at the version we hold; false when the socket is not ready. */
  act(action) {
    if (!this.isOpen()) return false;
    const id = `a${this.nextId++}`;
    this.socket.send(JSON.stringify({ type: "action", id, version: this.version, action }));
    return true;
  }
}
