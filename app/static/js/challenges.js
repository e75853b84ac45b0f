// Challenges: the button that challenges a player (on a profile, and next to a name at a finished
// table), and the panel of challenges in the corner of every page: those made to you, with accept
// and decline (a sound and a flashing title when one arrives), and your own, with cancel. The
// player socket (notices.js) tells the page at once of a challenge made to it or answered; the
// panel then reads GET /api/challenges, as it does whenever the socket opens and, should a
// notice be lost, every half minute while the page is in view. A link `/?challenge=<id>` shows
// that open challenge to whoever follows it.

import { call, identify, me } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { errorText, failure } from "./errors.js";
import "./i18n-challenges.js";
import { t } from "./i18n.js";
import { sound } from "./sounds.js";

const EVERY_MS = 30000;
const FLASH_MS = 1000;
let go = (path) => location.assign(path);
let timer = null;
let incoming = [];
let outgoing = [];
let linked = null; // the open challenge a link named, until answered
const heard = new Set(); // incoming challenges already announced
const waiting = new Map(); // your own challenges, to learn how each one ended
let flashing = null;
let title = document.title;

/** Start the panel (once a page): `navigate` opens a table in this page. */
export function startChallenges(navigate) {
  go = navigate;
  const id = new URLSearchParams(location.search).get("challenge");
  if (id) showLinked(id);
  document.addEventListener("visibilitychange", poll);
  window.addEventListener("talon:identity", poll);
  window.addEventListener("talon:notices-open", poll);
  window.addEventListener("talon:notice", (event) => notice(event.detail));
  window.addEventListener("focus", stopFlash);
  poll();
}

async function poll() {
  clearTimeout(timer);
  timer = null;
  if (me() && document.visibilityState === "visible") {
    try {
      const mine = await call("GET", "/api/challenges");
      await learnEnded(mine.outgoing);
      incoming = mine.incoming;
      outgoing = mine.outgoing;
      announce();
    } catch {
      // offline or signed out: keep what is shown
    }
    render();
  }
  timer = setTimeout(poll, EVERY_MS);
}

/** A notice of the player socket: a challenge made to you or answered. */
function notice(frame) {
  if (!frame.type.startsWith("challenge_")) return;
  const c = frame.challenge;
  if (frame.type !== "challenge_received" && c.challenger.id === me()?.id) {
    waiting.delete(c.id);
    ended(c);
  }
  poll();
}

function announce() {
  const fresh = incoming.filter((c) => !heard.has(c.id));
  for (const c of fresh) heard.add(c.id);
  if (fresh.length) {
    sound("turn");
    startFlash();
  }
  if (!incoming.length && !linked) stopFlash();
}

/** Your challenges no longer waiting: accepted ones open their table here, the others say how
 *  they ended. */
async function learnEnded(still) {
  const now = new Set(still.map((c) => c.id));
  for (const id of [...waiting.keys()]) {
    if (now.has(id)) continue;
    waiting.delete(id);
    try {
      ended(await call("GET", `/api/challenges/${encodeURIComponent(id)}`));
    } catch {
      // gone: nothing to tell
    }
  }
  for (const c of still) waiting.set(c.id, c);
}

function ended(c) {
  const name = c.challenged?.name ?? "";
  if (c.status === "accepted" && c.table_id) go(`/t/${c.table_id}`);
  else if (c.status === "declined") toast(t("challenge_declined_by", { name }));
  else if (c.status === "expired") toast(t("challenge_expired_note"));
}

async function showLinked(id) {
  if (!me()) {
    linked = { id, status: "pending", needsName: true };
    render();
    return;
  }
  try {
    const c = await call("GET", `/api/challenges/${encodeURIComponent(id)}`);
    linked = c.challenger.id === me().id ? null : c;
    if (linked && linked.status === "pending") startFlash();
    else if (linked) toast(errorText(linked.status === "expired" ? "challenge_expired" : "challenge_not_pending"));
  } catch (error) {
    toast(failure(error));
  }
  render();
}

function startFlash() {
  if (flashing) return;
  title = document.title;
  let on = false;
  flashing = setInterval(() => {
    on = !on;
    document.title = on ? `★ ${t("challenge_title")}` : title;
  }, FLASH_MS);
  panel().classList.add("flashing");
}

function stopFlash() {
  if (!flashing) return;
  clearInterval(flashing);
  flashing = null;
  document.title = title;
  panel().classList.remove("flashing");
}

async function answer(c, how) {
  stopFlash();
  try {
    if (how === "cancel") {
      waiting.delete(c.id);
      await call("DELETE", `/api/challenges/${encodeURIComponent(c.id)}`);
    } else {
      const done = await call("POST", `/api/challenges/${encodeURIComponent(c.id)}/${how}`);
      if (linked?.id === c.id) linked = null;
      if (how === "accept") go(`/t/${done.table_id}`);
    }
  } catch (error) {
    toast(failure(error));
    if (linked?.id === c.id) linked = null;
  }
  poll();
}

async function acceptWithName(c, form) {
  const name = form.elements.name.value.trim();
  if (!name) return;
  try {
    await identify(name);
  } catch (error) {
    toast(failure(error));
    return;
  }
  await showLinked(c.id);
  if (linked && linked.status === "pending") answer(linked, "accept");
}

function game(c) {
  const parts = [t(`variant_${c.variant}`)];
  if (c.rated) parts.push(t("challenge_rated"));
  return parts.join(" · ");
}

function row(c, text, ...buttons) {
  return h("li", { class: "challenge", dataset: { challenge: c.id } }, h("span", {}, text), h("span", { class: "actions" }, buttons));
}

function button(label, onclick, ghost = false) {
  return h("button", { type: "button", class: ghost ? "button ghost small" : "button small", onclick }, label);
}

function linkedRow() {
  if (!linked || linked.status !== "pending" || incoming.some((c) => c.id === linked.id)) return null;
  if (linked.needsName) {
    const form = h(
      "form",
      { class: "challenge-name", onsubmit: (e) => (e.preventDefault(), acceptWithName(linked, form)) },
      h("input", { name: "name", maxlength: 24, required: true, placeholder: t("challenge_your_name"), "aria-label": t("challenge_your_name") }),
      h("button", { type: "submit", class: "button small" }, t("challenge_accept")),
    );
    return h("li", { class: "challenge" }, h("span", {}, t("challenge_link_incoming")), form);
  }
  const text = t("challenge_open_incoming", { name: linked.challenger.name, game: game(linked) });
  return row(linked, text, button(t("challenge_accept"), () => answer(linked, "accept")));
}

function panel() {
  let el = document.getElementById("challenges");
  if (!el) {
    el = h("aside", { id: "challenges", class: "challenges", "aria-live": "polite", "data-testid": "challenges", hidden: true });
    document.body.append(el);
  }
  return el;
}

function render() {
  const items = [
    linkedRow(),
    ...incoming.map((c) =>
      row(
        c,
        t("challenge_incoming", { name: c.challenger.name, game: game(c) }),
        button(t("challenge_accept"), () => answer(c, "accept")),
        button(t("challenge_decline"), () => answer(c, "decline"), true),
      ),
    ),
    ...outgoing.map((c) =>
      row(
        c,
        c.challenged ? t("challenge_waiting", { name: c.challenged.name, game: game(c) }) : t("challenge_open_waiting", { game: game(c) }),
        c.challenged ? null : button(t("challenge_copy_link"), () => navigator.clipboard?.writeText(c.url).then(() => toast(t("challenge_link_copied"))), true),
        button(t("challenge_cancel"), () => answer(c, "cancel"), true),
      ),
    ),
  ].filter(Boolean);
  const el = panel();
  el.hidden = !items.length;
  mount(el, h("h2", {}, t("challenges_title")), h("ul", {}, items));
}

// The house rules a challenge offers (as the lobby's new table does), when its game lets a table
// change them, and the clocks of a table.
const FORM_OPTIONS = ["target", "claim", "close_fail"];
const TARGETS = [7, 10];
const CLOCKS = ["auto", "none", "move", "correspondence"];

async function twoSeatGames() {
  const { variants } = await call("GET", "/api/variants");
  return variants.filter((v) => v.seats.includes(2));
}

function choice(name, label, values, chosen) {
  return h(
    "label",
    { class: "field" },
    h("span", {}, label),
    h("select", { name, "aria-label": label }, values.map(([value, text]) => h("option", { value, selected: value === chosen }, text))),
  );
}

/** The chosen game's house rules, each with its values (the target: a few usual ones beside the
 *  game's own). */
function optionChoices(game) {
  return FORM_OPTIONS.filter((option) => option in game.options).map((option) => {
    const chosen = String(game.defaults[option]);
    if (option === "target") {
      const targets = [...new Set([...TARGETS, game.defaults.target])].sort((a, b) => a - b);
      return choice(option, t(option), targets.map((n) => [String(n), t("target_points", { n })]), chosen);
    }
    return choice(option, t(option), game.options[option].values.map((c) => [c, t(`${option}_${c}`)]), chosen);
  });
}

/** A "Challenge" button for `player` ({id, name, handle?}), with its small form: the game, its
 *  house rules, the clock and, between two accounts, rated or not. Null for yourself, or when
 *  you have no identity yet. */
export function challengeButton(player) {
  const self = me();
  if (!self || self.id === player.id) return null;
  const box = h("span", { class: "challenge-button" });
  const open = button(t("challenge_player", { name: player.name }), async () => {
    const games = await twoSeatGames().catch(() => [{ variant: "sixty-six", options: {}, defaults: {} }]);
    const rules = h("span", { class: "challenge-rules" });
    const showRules = (variant) => mount(rules, optionChoices(games.find((g) => g.variant === variant) ?? games[0]));
    const form = h(
      "form",
      { class: "challenge-form", onsubmit: (e) => (e.preventDefault(), send(player, form, box, games)) },
      choice("variant", t("challenge_game"), games.map((g) => [g.variant, t(`variant_${g.variant}`)]), games[0].variant),
      rules,
      choice("clock", t("clock"), CLOCKS.map((c) => [c, t(`clock_${c}`)]), "auto"),
      self.handle && player.handle ? h("label", {}, h("input", { type: "checkbox", name: "rated" }), ` ${t("challenge_rated")}`) : null,
      h("button", { type: "submit", class: "button small" }, t("challenge_send")),
    );
    form.elements.variant.addEventListener("change", (e) => showRules(e.target.value));
    showRules(games[0].variant);
    mount(box, form);
  });
  mount(box, open);
  return box;
}

async function send(player, form, box, games) {
  const variant = form.elements.variant.value;
  const game = games.find((g) => g.variant === variant);
  const options = {};
  for (const option of FORM_OPTIONS) {
    const field = form.elements[option];
    if (field && game && option in game.options) options[option] = option === "target" ? Number(field.value) : field.value;
  }
  if (game && "players" in game.options) options.players = 2;
  const clock = form.elements.clock.value;
  const body = { player_id: player.id, variant, options, rated: Boolean(form.elements.rated?.checked), ...(clock === "auto" ? {} : { clock }) };
  try {
    await call("POST", "/api/challenges", body);
    mount(box, h("span", { class: "muted" }, t("challenge_sent", { name: player.name })));
  } catch (error) {
    toast(failure(error));
  }
  poll();
}
