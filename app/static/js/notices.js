// The player socket (/ws/players, docs/protocol.md "The player socket"): one per page while it
// has an identity. It hands every frame to the page as a "talon:notice" event on window (the
// pools and the challenges listen), and says "talon:notices-open" each time it is greeted, so
// that they read the REST answers again (a notice sent while the socket was closed is not sent
// again). It reconnects after a close, a little later each time, and again when the identity
// changes.

import { me } from "./api.js";

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 15000;
const PING_MS = 25000;
let socket = null;
let token = null;
let retry = RETRY_MIN_MS;
let retryTimer = null;
let pingTimer = null;

/** Keep the socket open from now on (once a page). */
export function startNotices() {
  window.addEventListener("talon:identity", connect);
  connect();
}

function connect() {
  const player = me();
  if (socket && player && player.token === token) return; // open, or opening, for this identity
  closeSocket();
  if (!player) return;
  token = player.token;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/players`);
  socket = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", token })));
  ws.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (frame.type === "welcome") {
      retry = RETRY_MIN_MS;
      window.dispatchEvent(new Event("talon:notices-open"));
    } else if (frame.type !== "pong" && frame.type !== "error") {
      window.dispatchEvent(new CustomEvent("talon:notice", { detail: frame }));
    }
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return; // replaced already
    socket = null;
    clearInterval(pingTimer);
    if (event.code === 4001) return; // the token is no good: a new identity reconnects
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, retry);
    retry = Math.min(retry * 2, RETRY_MAX_MS);
  });
  clearInterval(pingTimer);
  pingTimer = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: "ping" })), PING_MS);
}

function closeSocket() {
  clearTimeout(retryTimer);
  clearInterval(pingTimer);
  if (socket) {
    const old = socket;
    socket = null;
    old.close();
  }
  token = null;
}
