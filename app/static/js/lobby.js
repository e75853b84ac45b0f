// The lobby: your name, Play now (quick pairing, pools.js), a new table with its house rules,
// open tables to join, live ones to watch.

import { call, forget, identify, me } from "./api.js";
import { cardElement } from "./cards.js";
import { clockLabel } from "./clock.js";
import { dropToast, h, mount, toast } from "./dom.js";
import { failure } from "./errors.js";
import { seatNames, t } from "./i18n.js";
import { playNowCard } from "./pools.js";
import { tournamentsCard } from "./tournaments.js";
import { contribute } from "./verify.js";

const REFRESH_MS = 5000;
// The house rules the create form offers, when the chosen game lets a table change them.
const FORM_OPTIONS = ["players", "target", "claim", "close_fail"];
const TARGETS = [7, 10];
// The rules page explains each house rule the form offers (its label links there), and each
// game in a section named after it.
const RULE_ANCHORS = { players: "option-players", target: "option-target", claim: "option-claim", close_fail: "option-close_fail" };

export function lobbyPage(root, navigate) {
  let open = null;
  let live = null;
  let yours = []; // the tables where this player holds a seat: the way back to each
  let editing = !me();
  let timer = null;
  let alive = true;
  const form = { variant: "sixty-six", target: "7", claim: "auto", close_fail: "opponent_2_or_3", visibility: "public", rated: "false", clock: "auto", on_timeout: "takeover" };
  // The games the server serves, from GET /api/variants (the engine's presets); until they
  // arrive, the form offers the default game only.
  let variants = null;

  function chosen() {
    return variants?.find((v) => v.variant === form.variant) ?? null;
  }

  // A new game resets the form's house rules to that game's own defaults.
  function chooseVariant(name) {
    form.variant = name;
    const info = chosen();
    if (info) for (const option of FORM_OPTIONS) form[option] = String(info.defaults[option]);
    render();
  }

  async function loadVariants() {
    try {
      const body = await call("GET", "/api/variants");
      if (!alive) return;
      variants = body.variants;
      if (chosen()) render();
      else if (variants.length) chooseVariant(variants[0].variant);
    } catch {
      if (alive) toast(t("offline"));
    }
  }

  // The options sent with a new table: those of the form that the chosen game lets change.
  function chosenOptions() {
    const info = chosen();
    const options = {};
    for (const option of FORM_OPTIONS) {
      if (info && !(option in info.options)) continue;
      if (option === "players" && !(info && info.seats.length > 1)) continue;
      options[option] = option === "target" || option === "players" ? Number(form[option]) : form[option];
    }
    return options;
  }

  async function refresh() {
    if (!alive) return;
    try {
      const [o, l, y] = await Promise.all([
        call("GET", "/api/tables?status=open"),
        call("GET", "/api/tables?status=live"),
        me() ? call("GET", "/api/players/me/tables").catch(() => null) : null,
      ]);
      if (!alive) return;
      open = o.tables;
      live = l.tables;
      yours = y ? y.tables : [];
      renderLists();
    } catch {
      if (alive) toast(t("offline"));
    }
    if (!alive) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, REFRESH_MS);
  }

  async function ensureName() {
    const input = root.querySelector("#name");
    const name = input ? input.value.trim() : me()?.name;
    if (!name) {
      toast(t("name_needed"));
      input?.focus();
      return null;
    }
    return identify(name);
  }

  // A new table with the house rules of the form; `extra` adds to or overrides the body.
  async function openTable(extra) {
    if (!(await ensureName())) return;
    try {
      // The server fixes its seed for the table first; this browser's part is sent after.
      const { commitment } = await call("POST", "/api/tables/commitment");
      const table = await call("POST", "/api/tables", {
        variant: form.variant,
        options: chosenOptions(),
        visibility: form.visibility,
        rated: form.rated === "true",
        ...(form.clock === "auto" ? {} : { clock: form.clock }),
        on_timeout: form.on_timeout,
        contribution: contribute(null, commitment),
        commitment,
        ...extra,
      });
      navigate(`/t/${table.id}`);
    } catch (error) {
      toast(failure(error));
    }
  }

  function create(event) {
    event.preventDefault();
    return openTable({});
  }

  // The computer takes every other seat of a private table: the match starts at once.
  function playComputer(level) {
    const seats = Number(chosenOptions().players || chosen()?.seats[0] || 2);
    const bots = Object.fromEntries(Array.from({ length: seats - 1 }, (_, i) => [i + 1, level]));
    return openTable({ visibility: "private", bots });
  }

  async function join(table) {
    if (!(await ensureName())) return;
    try {
      await call("POST", `/api/tables/${table.id}/join`, { contribution: contribute(table.id, table.next_commitment) });
      navigate(`/t/${table.id}`);
    } catch (error) {
      toast(failure(error));
      refresh();
    }
  }

  function select(name, values, onchange = (value) => { form[name] = value; }) {
    const anchor = name === "variant" ? form.variant : RULE_ANCHORS[name];
    return h(
      "label",
      { class: "field" },
      h(
        "span",
        {},
        t(name),
        anchor ? h("a", { class: "rule-link", href: `/rules#${anchor}`, "data-link": true, title: t("rule_explained"), "aria-label": `${t(name)}: ${t("rule_explained")}` }, "?") : null,
      ),
      h(
        "select",
        { name, onchange: (e) => onchange(e.target.value) },
        values.map(([value, label]) => h("option", { value, selected: form[name] === value }, label)),
      ),
    );
  }

  function nameCard() {
    const mine = me();
    if (mine && !editing) {
      return h(
        "div",
        { class: "who" },
        h("span", {}, t("playing_as", { name: mine.name })),
        h("button", { class: "button ghost small", type: "button", onclick: () => { editing = true; render(); root.querySelector("#name")?.focus(); } }, t("change_name")),
      );
    }
    return h(
      "form",
      { class: "who", onsubmit: async (e) => { e.preventDefault(); if (await ensureName()) { editing = false; render(); } } },
      h("label", { for: "name" }, t("your_name")),
      h("input", { id: "name", name: "name", maxlength: 24, required: true, value: mine ? mine.name : "", placeholder: t("name_placeholder"), autocomplete: "nickname" }),
      h("button", { class: "button", type: "submit" }, t("save_name")),
      mine ? h("button", { class: "button ghost small", type: "button", "aria-label": t("forget_name"), title: t("forget_name"), onclick: () => { forget(); editing = true; render(); } }, "×") : null,
    );
  }

  function createCard() {
    return h(
      "form",
      { class: "panel create", onsubmit: create, "aria-labelledby": "create-title" },
      h("h2", { id: "create-title" }, t("create_title")),
      select("variant", (variants ?? [{ variant: form.variant }]).map((v) => [v.variant, t(`variant_${v.variant}`)]), chooseVariant),
      optionSelects(),
      select("visibility", ["public", "private"].map((c) => [c, t(`visibility_${c}`)])),
      select("rated", ["false", "true"].map((c) => [c, t(`rated_${c}`)])),
      select("clock", ["auto", "none", "move", "correspondence"].map((c) => [c, t(`clock_${c}`)])),
      select("on_timeout", ["takeover", "forfeit"].map((c) => [c, t(`on_timeout_${c}`)])),
      h("button", { class: "button primary wide", type: "submit", "data-action": "create" }, t("create")),
    );
  }

  // The form's house rules the chosen game lets a table change, with the values the server
  // lists (the target offers a few usual ones beside the game's own).
  function optionSelects() {
    const info = chosen();
    if (!info) return null;
    return FORM_OPTIONS.filter((option) => option in info.options).map((option) => {
      if (option === "players") {
        if (info.seats.length < 2) return null;
        return select("players", info.seats.map((n) => [String(n), t("players_n", { n })]));
      }
      if (option === "target") {
        const targets = [...new Set([...TARGETS, info.defaults.target])].sort((a, b) => a - b);
        return select("target", targets.map((n) => [String(n), t("target_points", { n })]));
      }
      return select(option, info.options[option].values.map((c) => [c, t(`${option}_${c}`)]));
    });
  }

  function computerCard() {
    return h(
      "section",
      { class: "panel computer", "aria-labelledby": "computer-title" },
      h("h2", { id: "computer-title" }, t("bot_title")),
      h("p", { class: "muted" }, t("bot_intro")),
      h(
        "div",
        { class: "levels" },
        ["easy", "medium", "hard", "expert"].map((level) =>
          h("button", { class: "button small", type: "button", "data-action": "play-computer", "data-level": level, onclick: () => playComputer(level) }, t(`bot_level_${level}`)),
        ),
      ),
    );
  }

  function tableRow(table, kind) {
    const names = seatNames(table.seats).filter(Boolean);
    const mine = me();
    const seated = mine && table.seats.some((s) => s.player_id === mine.id);
    const title =
      kind === "open"
        ? t("waiting_for", { name: names[0] || "?" })
        : names.length > 2
          ? names.join(" · ")
          : t("vs", { a: names[0] || "?", b: names[1] || "?" });
    const free = table.seats.filter((s) => !s.player_id).length;
    const o = table.options;
    let button;
    if (kind === "live" || seated) {
      button = h("a", { class: "button small", href: `/t/${table.id}`, "data-link": true }, t(seated ? "open_table" : "watch"));
    } else {
      button = h("button", { class: "button primary small", type: "button", "data-action": "join", onclick: () => join(table) }, t("join"));
    }
    return h(
      "li",
      { class: "table-row", dataset: { table: table.id } },
      h("div", {}, h("strong", {}, title), h("small", {}, [t(`variant_${table.variant}`), t("target_points", { n: o.target }), o.bidding ? null : t(`claim_${o.claim}`), clockLabel(table.clock), kind === "open" && table.seats.length > 2 ? t("open_seats", { n: free }) : null].filter(Boolean).join(" · "))),
      button,
    );
  }

  /** One of the player's own tables: who sits there, whose move it is, and the way back. */
  function yourRow(table) {
    const named = seatNames(table.seats);
    const others = table.seats.filter((s) => s.seat !== table.seat).map((s) => named[s.seat]).filter(Boolean);
    const yourMove = table.to_move === table.seat && !table.taken_over;
    const state = table.taken_over
      ? t("taken_over_yours")
      : table.status === "open"
        ? t("waiting_for_players")
        : yourMove
          ? t("your_move")
          : table.to_move !== null
            ? t("their_turn", { name: named[table.to_move] || "?" })
            : null;
    return h(
      "li",
      { class: `table-row${yourMove ? " your-move" : ""}`, dataset: { table: table.id } },
      h(
        "div",
        {},
        h("strong", {}, others.length ? others.join(" · ") : t(`variant_${table.variant}`)),
        h("small", {}, [t(`variant_${table.variant}`), state].filter(Boolean).join(" · ")),
      ),
      h("a", { class: `button small${yourMove || table.taken_over ? " primary" : ""}`, href: `/t/${table.id}`, "data-link": true }, t(table.taken_over ? "reclaim_seat" : "open_table")),
    );
  }

  function yourList() {
    return h(
      "section",
      { class: "panel", "aria-labelledby": "yours-title", "data-testid": "your-games" },
      h("h2", { id: "yours-title" }, t("your_games")),
      h("ul", { class: "tables yours" }, yours.map(yourRow)),
    );
  }

  function list(title, tables, kind, empty) {
    return h(
      "section",
      { class: "panel", "aria-labelledby": `${kind}-title` },
      h("h2", { id: `${kind}-title` }, title),
      tables === null
        ? h("p", { class: "muted" }, t("loading"))
        : tables.length
          ? h("ul", { class: `tables ${kind}` }, tables.map((x) => tableRow(x, kind)))
          : h("p", { class: "muted" }, empty),
    );
  }

  function hero() {
    const fan = ["AH", "TH", "KS", "QS", "JD"].map((c) => cardElement(c));
    fan.forEach((el, i) => el.style.setProperty("--turn", `${(i - 2) * 9}deg`));
    return h(
      "div",
      { class: "hero" },
      h("div", { class: "hero-fan", "aria-hidden": "true" }, fan),
      h("p", { class: "tagline" }, t("tagline")),
    );
  }

  // The tables lists, drawn again at every refresh; the rest of the lobby is drawn only when
  // it changes, so that a refresh never replaces a button under a click (a press on the old
  // button and a release on its copy make no click) nor a form being filled in.
  function lists() {
    return [
      yours.length ? yourList() : null,
      list(t("open_tables"), open, "open", t("no_open_tables")),
      list(t("live_tables"), live, "live", t("no_live_tables")),
    ];
  }

  let drawnLists = null; // the lists' data as last drawn

  /** Draw the tables lists again if their data changed (`render` drew the lobby first). */
  function renderLists() {
    const right = root.querySelector(".lobby-right");
    const now = JSON.stringify([open, live, yours]);
    if (!right || now === drawnLists) return;
    drawnLists = now;
    const focused = right.contains(document.activeElement) ? document.activeElement?.id : null;
    mount(right, ...lists());
    if (focused) document.getElementById(focused)?.focus();
  }

  function render() {
    const focused = document.activeElement?.id;
    const nameValue = root.querySelector("#name")?.value;
    drawnLists = JSON.stringify([open, live, yours]);
    mount(
      root,
      h(
        "div",
        { class: "lobby" },
        // Play now first; the computer's buttons under the form whose game they play; on a
        // phone the tables to join come before the form (talon.css orders them).
        h("div", { class: "lobby-left" }, hero(), nameCard(), playNowCard(ensureName), tournamentsCard(), createCard(), computerCard()),
        h("div", { class: "lobby-right" }, ...lists()),
      ),
    );
    const name = root.querySelector("#name");
    if (name && nameValue !== undefined) name.value = nameValue;
    if (focused) document.getElementById(focused)?.focus();
  }

  render();
  refresh();
  loadVariants();
  return {
    render,
    leave() {
      alive = false;
      clearTimeout(timer);
      dropToast(t("name_needed")); // the lobby's own notice stays behind with the lobby
    },
  };
}
