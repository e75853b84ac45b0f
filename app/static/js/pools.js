// Quick pairing in the browser: the "Play now" card of the lobby's first screen (a button per
// pool, GET /api/pools) and, once pressed, its waiting panel: the time waited, the rating
// range accepted now, a cancel button and, when it comes, the computer offer with its accept
// button. The player socket (notices.js) says at once when a pool seats the player (the page
// goes to the table), offers the computer or takes it out; while waiting, the panel also reads
// GET /api/pools/entry every few seconds (the range grows; and should a notice be lost, the
// table is found there).

import { call, me } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { failure } from "./errors.js";
import "./i18n-pools.js";
import { t } from "./i18n.js";
import { redrawsAfterPresses } from "./presses.js";
import { sound } from "./sounds.js";

const POLL_MS = 3000;
const POOLS_MS = 10000;
let go = (path) => location.assign(path);
let pools = null; // GET /api/pools, once read
let entry = null; // the player's waiting entry, with `since` (this page's clock) for the ticker
let nameFirst = async () => me();
let pollTimer = null;
let tickTimer = null;
let poolsTimer = null;
let busy = false;
const card = h("section", { class: "panel play-now", "aria-labelledby": "play-now-title", "data-testid": "play-now" });
// The card redraws every second while its player waits: a press on it holds that.
const presses = redrawsAfterPresses(card, () => render());

/** Listen for the pools' notices (once a page): `navigate` opens a table in this page. */
export function startPools(navigate) {
  go = navigate;
  window.addEventListener("talon:notice", (event) => heard(event.detail));
  window.addEventListener("talon:notices-open", readEntry);
  window.addEventListener("talon:identity", () => stopWaiting());
  readEntry();
}

/** The lobby's card, kept up to date by this module. `ensureName` names the player first. */
export function playNowCard(ensureName) {
  nameFirst = ensureName;
  if (pools === null) loadPools();
  clearTimeout(poolsTimer);
  poolsTimer = setTimeout(() => card.isConnected && loadPools(), POOLS_MS);
  render();
  return card;
}

async function loadPools() {
  try {
    pools = (await call("GET", "/api/pools")).pools;
  } catch {
    pools = pools ?? [];
  }
  render();
}

function heard(frame) {
  if (!frame.type.startsWith("pool_")) return;
  if (frame.type === "pool_seated") seated(frame.table_id);
  else if (frame.type === "pool_waiting") waiting(frame);
  else if (frame.type === "pool_offer" && entry && entry.pool === frame.pool) {
    entry.offer = { level: frame.level };
    sound("turn");
    render();
  } else if (frame.type === "pool_left") {
    const was = entry;
    stopWaiting();
    if (was && frame.reason === "offline") toast(t("pool_dropped"));
  }
}

// This browser waits in a pool (so a page opened or reloaded meanwhile asks for the entry;
// the others do not).
const WAITING_KEY = "talon.pool";

async function readEntry() {
  if (!me() || !(entry || localStorage.getItem(WAITING_KEY))) return;
  try {
    const found = await call("GET", "/api/pools/entry");
    if (found.status === "waiting") waiting(found);
    else seated(found.table.id); // seated while this page (or the one before a reload) waited
  } catch (error) {
    if (error?.code === "not_in_pool") {
      stopWaiting();
      toast(t("pool_dropped"));
    }
  }
}

function waiting(found) {
  entry = { ...found, since: performance.now() - found.waited * 1000 };
  localStorage.setItem(WAITING_KEY, found.pool);
  clearTimeout(pollTimer);
  pollTimer = setTimeout(function again() {
    readEntry().finally(() => { if (entry) pollTimer = setTimeout(again, POLL_MS); });
  }, POLL_MS);
  if (!tickTimer) tickTimer = setInterval(render, 1000);
  render();
}

function stopWaiting() {
  entry = null;
  localStorage.removeItem(WAITING_KEY);
  clearTimeout(pollTimer);
  clearInterval(tickTimer);
  tickTimer = null;
  render();
}

function seated(tableId) {
  stopWaiting();
  go(`/t/${tableId}`);
}

async function act(request) {
  if (busy) return;
  busy = true;
  try {
    await request();
  } catch (error) {
    toast(failure(error));
  } finally {
    busy = false;
  }
}

function join(pool) {
  return act(async () => {
    if (!(await nameFirst())) return;
    const found = await call("POST", `/api/pools/${encodeURIComponent(pool.id)}/join`);
    if (found.status === "waiting") waiting(found);
    else seated(found.table.id);
  });
}

function cancel() {
  return act(async () => {
    try {
      await call("DELETE", "/api/pools/entry");
    } catch (error) {
      if (error?.code !== "not_in_pool") throw error;
    }
    stopWaiting();
  });
}

function acceptComputers() {
  return act(async () => {
    const found = await call("POST", "/api/pools/entry/bots");
    seated(found.table.id);
  });
}

function gameName(pool) {
  return t(`variant_${pool.variant}`);
}

function elapsed() {
  const seconds = Math.max(0, Math.floor((performance.now() - entry.since) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function poolButton(pool) {
  return h(
    "button",
    { class: "button pool", type: "button", "data-pool": pool.id, onclick: () => join(pool) },
    h("strong", {}, gameName(pool)),
    h("small", {}, [t("players_n", { n: pool.seats }), pool.waiting ? t("pool_waiting_n", { n: pool.waiting }) : null].filter(Boolean).join(" · ")),
  );
}

function waitingPanel() {
  const pool = pools?.find((p) => p.id === entry.pool) ?? { id: entry.pool, variant: entry.pool, seats: 2 };
  const low = Math.max(0, entry.rating - entry.range);
  return h(
    "div",
    { class: "pool-waiting", "data-testid": "pool-waiting", "aria-live": "polite" },
    h("p", { class: "pool-game" }, h("strong", {}, gameName(pool)), " · ", t("players_n", { n: pool.seats })),
    h("p", { class: "pool-clock" }, h("span", { class: "spinner", "aria-hidden": "true" }), t("pool_waited", { time: elapsed() })),
    h("p", { class: "muted", "data-testid": "pool-range" }, t("pool_range", { low, high: entry.rating + entry.range })),
    entry.offer
      ? h(
          "div",
          { class: "pool-offer", "data-testid": "pool-offer" },
          h("p", {}, t("pool_offer", { level: t(`bot_level_${entry.offer.level}`) })),
          h("button", { class: "button primary", type: "button", "data-action": "accept-computers", onclick: acceptComputers }, t("pool_offer_accept")),
        )
      : null,
    h("button", { class: "button ghost", type: "button", "data-action": "cancel-pool", onclick: cancel }, t("pool_cancel")),
  );
}

function render() {
  if (presses.held()) return;
  mount(
    card,
    h("h2", { id: "play-now-title" }, t("play_now_title")),
    entry
      ? waitingPanel()
      : [
          h("p", { class: "muted" }, t("play_now_intro")),
          pools === null ? h("p", { class: "muted" }, t("loading")) : h("div", { class: "pools" }, pools.map(poolButton)),
        ],
  );
}
