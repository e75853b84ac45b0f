// Each seat's presence at the table (connected, away, gone), from the server's `presence`
// frames: a dot by each player's name, and how long the table still waits for an away player.
// The seconds left are counted against the server's clock (the frame's `at`), so a slow frame
// or a wrong clock on this computer does not stretch or shorten the wait.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export class SeatPresence {
  constructor() {
    this.seats = {}; // seat -> {state, remaining}
    this.frameAt = 0; // server time of the last frame (ms)
    this.offset = null; // best estimate of server time minus this computer's time (ms)
  }

  /** Take a `presence` frame. */
  take(frame) {
    const at = Number(frame.at) * 1000;
    const seen = at - Date.now(); // the offset, less however long the frame travelled
    this.offset = this.offset === null ? seen : Math.max(this.offset, seen);
    this.frameAt = at;
    this.seats = Object.fromEntries((frame.seats || []).map((s) => [s.seat, s]));
  }

  /** "connected", "away", "gone", or null (an empty seat or a computer player). */
  stateOf(seat) {
    return this.seats[seat]?.state || null;
  }

  /** Whole seconds the table still waits for an away seat (0 once over). */
  secondsLeft(seat) {
    const entry = this.seats[seat];
    if (!entry || entry.state !== "away") return 0;
    const deadline = this.frameAt + entry.remaining * 1000;
    const serverNow = Date.now() + (this.offset || 0);
    return Math.max(0, Math.ceil((deadline - serverNow) / 1000));
  }

  /** The seats in a given state. */
  seatsIn(state) {
    return Object.values(this.seats).filter((s) => s.state === state).map((s) => s.seat);
  }
}

/** The dot by a seat's name, with its meaning in words for screen readers and on hover. */
export function presenceDot(state, name) {
  if (!state) return null;
  const words = t(`presence_${state}`, { name });
  return h("span", { class: `presence presence-${state}`, role: "img", "aria-label": words, title: words, "data-testid": "presence", "data-state": state });
}
