// Turn clocks on the table page: the seat whose time runs, counting down from what the
// server's `clock` frame said (the seconds left when the frame was sent), and the banks of the
// others. The local clock only measures the time since the frame arrived; the server enforces
// every deadline itself.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import "./i18n-clocks.js";

const LOW_S = 10;

/** A clock frame as received: when it arrived (local ms) with what it said. */
export function received(frame) {
  return { ...frame, at: performance.now() };
}

/** Seconds as m:ss (h:mm:ss from an hour on). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

function left(clock) {
  return clock.remaining[clock.seat] - (performance.now() - clock.at) / 1000;
}

/** Whole seconds left on `seat`'s turn clock at `version`, or null when that seat's clock is
 * not running (an untimed table, another seat on move, or a clock of an older version). */
export function secondsOf(clock, seat, version) {
  if (!clock || clock.seat !== seat || clock.version !== version) return null;
  return Math.max(0, Math.ceil(left(clock)));
}

/** The clock strip of the table's header: whose time runs and how much is left; null at an
 * untimed table, between matches or while a computer player is on move. */
export function clockStrip(clock, names, version) {
  if (!clock || clock.seat === null || clock.seat === undefined || clock.version !== version) return null;
  const rules = clock.mode === "move" ? t("clock_rules_move", { s: clock.per_move, bank: clock.bank }) : t("clock_rules_correspondence", { h: clock.per_move / 3600 });
  const name = names[clock.seat] || "?";
  const bank = clock.bank > 0 ? clock.remaining.map((r, seat) => (seat === clock.seat ? null : `${names[seat] || "?"} · ${t("clock_bank", { time: clockText(r) })}`)).filter(Boolean).join(", ") : "";
  const seconds = left(clock);
  return h(
    "span",
    { class: `clock${seconds <= LOW_S ? " low" : ""}`, "data-testid": "clock", "data-seat": String(clock.seat), title: [rules, bank].filter(Boolean).join(" — ") },
    h("span", { class: "clock-time", "data-name": name }, t("clock_of", { name, time: clockText(seconds) })),
  );
}

/** Redraw the running clock's text every quarter second (no full render). */
export function tick(root, clockOf) {
  return setInterval(() => {
    const clock = clockOf();
    const shown = root.querySelector("[data-testid=clock]");
    if (!clock || !shown || clock.seat === null) return;
    const seconds = left(clock);
    const text = shown.querySelector(".clock-time");
    text.textContent = t("clock_of", { name: text.dataset.name, time: clockText(seconds) });
    shown.classList.toggle("low", seconds <= LOW_S);
  }, 250);
}

/** The banner of a seat a computer player took over: for its player, with the way back. */
export function takeoverNotice(table, mine, reclaim) {
  const abandoned = table?.abandoned || [];
  if (!abandoned.length || table.status !== "live") return null;
  const own = mine && abandoned.find((a) => a.player_id === mine.id);
  if (own) {
    return h(
      "div",
      { class: "notice takeover", role: "status", "data-testid": "taken-over" },
      h("span", {}, t("taken_over_you")),
      h("button", { class: "button primary small", type: "button", "data-action": "reclaim", onclick: reclaim }, t("reclaim_seat")),
    );
  }
  return h(
    "div",
    { class: "notice takeover", role: "status", "data-testid": "taken-over" },
    abandoned.map((a) => h("span", {}, t("taken_over_other", { name: a.name }))),
  );
}

/** The lobby's words for a table's clock (null for an untimed one). */
export function clockLabel(mode) {
  return mode && mode !== "none" ? t(`clock_${mode}_short`) : null;
}
