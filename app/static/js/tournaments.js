// Tournaments in the browser (GET /api/tournaments and /api/tournaments/{id}):
//   /tournaments       the events, upcoming, running and finished, and (for an account) the
//                      form that creates one
//   /tournaments/{id}  one event: countdown to the start, join and withdraw (in a four-hand
//                      event: start a team, or join a partner's by its handle), the creator's
//                      computer entrants, the standings (computer entrants marked), the rounds
//                      and their pairings, the player's game under way one click away, and the
//                      podium once finished.
// The event page reads the event every few seconds while it is visible; when the player is
// newly paired, the page goes to the table by itself.

import { call, me } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { failure } from "./errors.js";
import "./i18n-clocks.js";
import "./i18n-tournaments.js";
import { t } from "./i18n.js";
import { redrawsAfterPresses } from "./presses.js";

const POLL_MS = 2500;
const LIST_MS = 10000;
const STATUSES = ["running", "upcoming", "finished"];
const LEVELS = ["easy", "medium", "hard", "expert"];
const TARGETS = [1, 3, 7, 10];
// The house rules the form lets an event change, when its game has them (as the lobby's form).
const FORM_OPTIONS = ["target", "claim", "close_fail"];

// A game an event can be played at: two players, or four in fixed partnerships.
function eventGame(v) {
  return v.seats.includes(2) || (v.seats.includes(4) && v.defaults.partners === true);
}

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function whenText(epoch) {
  return new Date(epoch * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
}

function formatText(event) {
  const game = t(`variant_${event.variant}`);
  const length = event.format === "arena" ? t("tournament_minutes", { n: Math.round((event.ends_at - event.starts_at) / 60) }) : t(event.rounds === 1 ? "tournament_rounds_one" : "tournament_rounds_n", { n: event.rounds });
  return [t(`tournament_${event.format}`), game, length, event.rated ? t("tournament_rated") : null].filter(Boolean).join(" · ");
}

function points(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The list of events: upcoming, running, finished; and the form that creates one (an
 *  account's), which opens the new event's page (`navigate`). */
export function tournamentsPage(root, navigate) {
  let found = null;
  let alive = true;
  let timer = null;
  const listed = h("div", { class: "tournament-groups" });
  const creating = createForm(navigate);

  async function load() {
    try {
      found = await call("GET", "/api/tournaments");
    } catch (error) {
      if (alive) toast(failure(error));
    }
    if (!alive) return;
    render();
    timer = setTimeout(load, LIST_MS);
  }

  function eventRow(event) {
    const when = event.status === "upcoming" ? t("tournament_starts_at", { when: whenText(event.starts_at) }) : event.status === "running" ? t("tournament_running") : t("tournament_finished");
    return h(
      "li",
      { "data-tournament": event.id },
      h("a", { href: `/tournaments/${event.id}`, "data-link": true }, h("strong", {}, event.name)),
      h("span", { class: "muted" }, formatText(event)),
      h("span", { class: "muted" }, [when, t("tournament_entrants_n", { n: event.entrants })].join(" · ")),
    );
  }

  // Only the list is drawn again as it is read; the form keeps what is being typed.
  function renderList() {
    mount(
      listed,
      found === null
        ? h("p", { class: "muted" }, t("loading"))
        : STATUSES.map((status) =>
            h(
              "section",
              { class: "tournament-group", "data-status": status },
              h("h2", {}, t(`tournaments_${status}`)),
              found[status].length ? h("ul", { class: "tournament-list" }, found[status].map(eventRow)) : h("p", { class: "muted" }, t("tournaments_none")),
            ),
          ),
    );
  }

  function render() {
    if (!root.contains(listed)) {
      mount(
        root,
        h(
          "div",
          { class: "tournaments-page" },
          h("section", { class: "panel", "data-testid": "tournaments" }, h("h1", {}, t("tournaments_title")), listed),
          creating.element,
        ),
      );
    }
    renderList();
    creating.render();
  }

  render();
  load();
  return {
    render() {
      mount(root); // the language changed: everything is drawn afresh
      render();
    },
    leave() {
      alive = false;
      clearTimeout(timer);
      creating.leave();
    },
  };
}

/** The form that creates an event (POST /api/tournaments), for an account: its name, format,
 *  game and house rules, clock, rating, start, length or rounds, who may join and whether
 *  computer entrants may. Its `element` stays in the page; `render` draws it afresh. */
function createForm(navigate) {
  const element = h("section", { class: "panel tournament-create", "aria-labelledby": "tournament-create-title", "data-testid": "tournament-create" });
  const form = { name: "", format: "arena", variant: "sixty-six", target: "7", claim: "auto", close_fail: "opponent_2_or_3", clock: "move", rated: false, starts_in: "5", duration: "30", rounds: "5", streak: true, access: "accounts", computers: false };
  let variants = null;
  let alive = true;
  let busy = false;

  call("GET", "/api/variants")
    .then((body) => {
      if (!alive) return;
      variants = body.variants.filter(eventGame);
      choose(form.variant);
    })
    .catch(() => {});

  function chosen() {
    return variants?.find((v) => v.variant === form.variant) ?? null;
  }

  // A new game takes that game's own house rules.
  function choose(variant) {
    form.variant = variant;
    const info = chosen();
    if (info) for (const option of FORM_OPTIONS) if (option in info.defaults) form[option] = String(info.defaults[option]);
    render();
  }

  function options() {
    const info = chosen();
    const chosenOptions = {};
    for (const option of FORM_OPTIONS) {
      if (info && !(option in info.options)) continue;
      chosenOptions[option] = option === "target" ? Number(form.target) : form[option];
    }
    return chosenOptions;
  }

  async function submit(e) {
    e.preventDefault();
    if (busy) return;
    busy = true;
    const minutes = (value) => Math.round(Number(value) * 60);
    const body = {
      name: form.name,
      format: form.format,
      variant: form.variant,
      options: options(),
      clock: form.clock,
      rated: form.rated,
      starts_in: minutes(form.starts_in),
      access: form.access,
      computers: form.computers,
      ...(form.format === "arena" ? { duration: minutes(form.duration), streak: form.streak } : { rounds: Number(form.rounds) }),
    };
    try {
      const event = await call("POST", "/api/tournaments", body);
      navigate(`/tournaments/${event.id}`);
    } catch (error) {
      toast(failure(error));
    } finally {
      busy = false;
    }
  }

  function field(name, label, control) {
    return h("label", { class: "field" }, h("span", {}, label), control);
  }

  function select(name, label, values, onchange = (value) => { form[name] = value; }) {
    return field(name, label, h("select", { name, onchange: (e) => onchange(e.target.value) }, values.map(([value, text]) => h("option", { value, selected: form[name] === value }, text))));
  }

  function number(name, label, min, max) {
    return field(name, label, h("input", { name, type: "number", min, max, step: 1, required: true, value: form[name], oninput: (e) => { form[name] = e.target.value; } }));
  }

  function check(name, label) {
    return h("label", { class: "check" }, h("input", { name, type: "checkbox", checked: form[name], onchange: (e) => { form[name] = e.target.checked; } }), " ", label);
  }

  function ruleSelects() {
    const info = chosen();
    if (!info) return null;
    return FORM_OPTIONS.filter((option) => option in info.options).map((option) => {
      if (option === "target") {
        const targets = [...new Set([...TARGETS, info.defaults.target])].sort((a, b) => a - b);
        return select("target", t("target"), targets.map((n) => [String(n), t("target_points", { n })]));
      }
      return select(option, t(option), info.options[option].values.map((c) => [c, t(`${option}_${c}`)]));
    });
  }

  function render() {
    const title = h("h2", { id: "tournament-create-title" }, t("tournament_create_title"));
    if (!me()?.handle) {
      mount(element, title, h("p", { class: "muted" }, t("tournament_create_accounts")), h("a", { class: "button", href: "/account", "data-link": true }, t("tournament_create_sign_in")));
      return;
    }
    const arena = form.format === "arena";
    mount(
      element,
      h(
        "form",
        { class: "tournament-form", onsubmit: submit },
        title,
        field("name", t("tournament_name"), h("input", { name: "name", maxlength: 60, required: true, value: form.name, autocomplete: "off", oninput: (e) => { form.name = e.target.value; } })),
        select("format", t("tournament_format"), ["arena", "swiss"].map((f) => [f, t(`tournament_${f}`)]), (value) => { form.format = value; render(); }),
        select("variant", t("variant"), (variants ?? [{ variant: form.variant }]).map((v) => [v.variant, t(`variant_${v.variant}`)]), choose),
        ruleSelects(),
        select("clock", t("clock"), ["move", "correspondence"].map((c) => [c, t(`clock_${c}`)])),
        number("starts_in", t("tournament_starts_in_minutes"), 0, 43200),
        arena ? number("duration", t("tournament_duration_minutes"), 1, 1440) : number("rounds", t("tournament_rounds"), 1, 15),
        select("access", t("tournament_access"), ["accounts", "guests"].map((a) => [a, t(`tournament_access_${a}`)])),
        h("div", { class: "checks" }, check("rated", t("tournament_rated_field")), arena ? check("streak", t("tournament_streak")) : null, check("computers", t("tournament_computers_allowed"))),
        h("button", { class: "button primary wide", type: "submit", "data-action": "create-tournament" }, t("tournament_create")),
      ),
    );
  }

  return {
    element,
    render,
    leave() {
      alive = false;
    },
  };
}

/** One event, live. `navigate` opens the player's table in this page. */
export function tournamentPage(root, id, navigate) {
  let event = null;
  let missing = false;
  let alive = true;
  let timer = null;
  let ticker = null;
  let busy = false;
  const presses = redrawsAfterPresses(root, () => render());
  // The table the player was last seen playing at: a new one is a new pairing, and the page
  // goes there. The first reading only remembers it (the player may have come back on purpose).
  let seenTable;

  async function load() {
    clearTimeout(timer);
    try {
      const body = await call("GET", `/api/tournaments/${encodeURIComponent(id)}`);
      if (!alive) return;
      event = body;
      const table = body.you?.table ?? null;
      const fresh = seenTable !== undefined && table && table !== seenTable;
      seenTable = table;
      if (fresh) {
        navigate(`/t/${table}`);
        return;
      }
    } catch (error) {
      if (!alive) return;
      if (error?.code === "tournament_not_found") missing = true;
    }
    render();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (!alive || missing || event?.status === "finished") return;
    if (document.visibilityState === "visible") timer = setTimeout(load, POLL_MS);
  }

  function visibility() {
    if (document.visibilityState === "visible") load();
    else clearTimeout(timer);
  }
  document.addEventListener("visibilitychange", visibility);

  async function act(path, body) {
    if (busy) return;
    busy = true;
    try {
      event = await call("POST", `/api/tournaments/${encodeURIComponent(id)}/${path}`, body);
      seenTable = event.you?.table ?? null;
    } catch (error) {
      toast(failure(error));
    } finally {
      busy = false;
    }
    render();
  }

  function names() {
    const byId = {};
    for (const row of event.standings) byId[row.entrant] = row;
    return byId;
  }

  function entrantName(row, entrant) {
    if (!row) return entrant;
    return h("span", { class: "entrant" }, row.name, row.computer ? h("span", { class: "tag computer", title: t("tournament_computer") }, t("tournament_computer_tag")) : null);
  }

  function header() {
    return [h("h1", {}, event.name), h("p", { class: "muted" }, formatText(event), " · ", t("tournament_entrants_n", { n: event.entrants })), statusLine()];
  }

  function statusLine() {
    const now = Date.now() / 1000;
    let status;
    if (event.status === "upcoming") status = h("p", { class: "countdown", "data-testid": "countdown" }, t("tournament_starts_in", { time: clockText(event.starts_at - now) }));
    else if (event.status === "running" && event.format === "arena") status = h("p", { class: "countdown", "data-testid": "countdown" }, t("tournament_ends_in", { time: clockText(event.ends_at - now) }));
    else if (event.status === "running") status = h("p", { class: "countdown" }, t("tournament_round_of", { round: event.round, rounds: event.rounds }));
    else status = h("p", { class: "countdown" }, t("tournament_finished"));
    return status;
  }

  function actions() {
    const you = event.you;
    const open = event.status === "upcoming" || (event.status === "running" && event.format === "arena");
    const parts = [];
    if (you?.table) {
      parts.push(h("a", { class: "button primary", href: `/t/${you.table}`, "data-link": true, "data-testid": "tournament-game" }, t("tournament_your_game")));
    }
    const teams = event.seats === 4;
    if (open && (!you || you.withdrawn)) {
      if (!me()) parts.push(h("a", { class: "button", href: "/account", "data-link": true }, t("tournament_sign_in")));
      else parts.push(h("button", { class: "button primary", type: "button", "data-action": "join-tournament", onclick: () => act("join") }, t(teams ? "tournament_team_new" : "tournament_join")));
    } else if (open && you && !you.withdrawn) {
      parts.push(h("span", { class: "muted", "data-testid": "tournament-joined" }, t("tournament_you_are_in")));
      parts.push(h("button", { class: "button ghost", type: "button", "data-action": "withdraw-tournament", onclick: () => act("withdraw") }, t("tournament_withdraw")));
    }
    return parts.length ? h("div", { class: "tournament-actions" }, parts, open && teams ? teamParts() : null, open ? computerParts() : null) : null;
  }

  // A four-hand event: a player starts a team, or joins one as its second player, picked by
  // the handle of the account who started it or from the teams still waiting.
  function teamParts() {
    const you = event.you;
    if (you && !you.withdrawn) {
      const waiting = event.teams.some((team) => team.id === you.entrant);
      return waiting ? h("p", { class: "muted", "data-testid": "team-waiting" }, t("tournament_waiting_partner")) : null;
    }
    if (!me()) return null;
    const input = h("input", { name: "partner", required: true, maxlength: 40, autocomplete: "off", "aria-label": t("tournament_partner_handle"), placeholder: t("tournament_partner_handle") });
    return h(
      "div",
      { class: "tournament-teams", "data-testid": "tournament-teams" },
      h(
        "form",
        { class: "partner-form", onsubmit: (e) => { e.preventDefault(); act("join", { partner: input.value.trim() }); } },
        input,
        h("button", { class: "button", type: "submit", "data-action": "join-partner" }, t("tournament_join_partner")),
      ),
      event.teams.length
        ? h("div", {}, h("p", { class: "muted" }, t("tournament_teams_waiting")), h("ul", { class: "team-list" }, event.teams.map((team) => h("li", {}, h("button", { class: "button small", type: "button", "data-team": team.id, onclick: () => act("join", { team: team.id }) }, t("tournament_join_team", { name: team.name }))))))
        : null,
    );
  }

  // The event's creator adds computer entrants (a level each) while entries are open.
  function computerParts() {
    if (!event.computers || !me() || me().id !== event.created_by) return null;
    const level = h("select", { name: "level", "aria-label": t("tournament_level") }, LEVELS.map((l) => h("option", { value: l }, t(`bot_level_${l}`))));
    return h(
      "form",
      { class: "computer-form", "data-testid": "add-computer-entrant", onsubmit: (e) => { e.preventDefault(); act("computers", { level: level.value }); } },
      level,
      h("button", { class: "button", type: "submit", "data-action": "add-computer-entrant" }, t("tournament_add_computer")),
    );
  }

  function podium() {
    if (event.status !== "finished") return null;
    const top = event.standings.slice(0, 3);
    if (!top.length) return null;
    return h(
      "ol",
      { class: "podium", "data-testid": "podium" },
      top.map((row) => h("li", { class: `place place-${row.rank}` }, h("span", { class: "medal" }, String(row.rank)), entrantName(row), h("span", { class: "muted" }, t(row.points === 1 ? "tournament_points_one" : "tournament_points_n", { n: points(row.points) })))),
    );
  }

  function standings() {
    const swiss = event.format === "swiss";
    const mine = event.you?.entrant;
    const heads = ["rank", "player", "tournament_points", "tournament_games"];
    if (swiss) heads.push("tournament_buchholz", "tournament_sb");
    return h(
      "section",
      { class: "tournament-standings" },
      h("h2", {}, t("tournament_standings")),
      event.standings.length
        ? h(
            "div",
            { class: "table-scroll" },
            h(
              "table",
              { class: "leaderboard", "data-testid": "standings" },
              h("thead", {}, h("tr", {}, heads.map((k) => h("th", { title: t(k) }, t(k === "tournament_buchholz" ? "tournament_buchholz_short" : k === "tournament_sb" ? "tournament_sb_short" : k))))),
              h(
                "tbody",
                {},
                event.standings.map((row) =>
                  h(
                    "tr",
                    { dataset: { entrant: row.entrant, points: String(row.points) }, class: [row.entrant === mine ? "mine" : "", row.withdrawn ? "withdrawn" : ""].join(" ").trim() || null },
                    h("td", {}, String(row.rank)),
                    h("td", {}, entrantName(row), row.withdrawn ? h("span", { class: "muted" }, ` (${t("tournament_withdrawn")})`) : null),
                    h("td", { class: "points" }, points(row.points)),
                    h("td", {}, String(row.games)),
                    swiss ? h("td", {}, points(row.buchholz)) : null,
                    swiss ? h("td", {}, points(row.sonneborn_berger)) : null,
                  ),
                ),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("tournament_no_entrants")),
    );
  }

  function resultText(pairing, entrant) {
    const result = pairing.result?.[entrant];
    if (!result) return "";
    return t(`tournament_outcome_${result.outcome}`);
  }

  function pairingRow(pairing, byId) {
    const a = entrantName(byId[pairing.a], pairing.a);
    const b = pairing.b ? entrantName(byId[pairing.b], pairing.b) : h("span", { class: "muted" }, t("tournament_bye"));
    let state;
    if (pairing.status === "finished") state = pairing.b ? `${resultText(pairing, pairing.a)} – ${resultText(pairing, pairing.b)}` : "";
    else if (pairing.table) state = h("a", { href: `/t/${pairing.table}`, "data-link": true }, pairing.status === "playing" ? t("tournament_watch") : t("tournament_pending"));
    else state = t("tournament_pending");
    return h("li", { dataset: { pairing: String(pairing.id), status: pairing.status } }, h("span", { class: "pair" }, a, h("span", { class: "muted" }, " – "), b), h("span", { class: "state muted" }, state));
  }

  function pairings() {
    if (!event.pairings.length) return null;
    const byId = names();
    const rounds = new Map();
    for (const pairing of event.pairings) {
      const key = event.format === "swiss" ? pairing.round : 0;
      if (!rounds.has(key)) rounds.set(key, []);
      rounds.get(key).push(pairing);
    }
    const keys = [...rounds.keys()].sort((x, y) => y - x);
    return h(
      "section",
      { class: "tournament-pairings", "data-testid": "pairings" },
      h("h2", {}, t("tournament_pairings")),
      keys.map((key) =>
        h(
          "div",
          { class: "tournament-round" },
          event.format === "swiss" ? h("h3", {}, t("tournament_round_n", { n: key })) : null,
          h("ul", { class: "pairing-list" }, [...rounds.get(key)].reverse().map((p) => pairingRow(p, byId))),
        ),
      ),
    );
  }

  function render() {
    if (presses.held()) return;
    if (missing) {
      mount(root, h("section", { class: "panel" }, h("p", {}, t("err_tournament_not_found")), h("a", { href: "/tournaments", "data-link": true }, t("tournaments_title"))));
      return;
    }
    if (!event) {
      mount(root, h("section", { class: "panel" }, h("p", { class: "muted" }, t("loading"))));
      return;
    }
    const listed = pairings();
    mount(
      root,
      h(
        "div",
        { class: "tournament-page", "data-testid": "tournament", "data-status": event.status },
        h("section", { class: "panel tournament-head" }, h("p", {}, h("a", { href: "/tournaments", "data-link": true }, `← ${t("tournaments_title")}`)), header(), actions(), podium()),
        h("div", { class: "tournament-body" }, h("section", { class: "panel" }, standings()), listed ? h("section", { class: "panel" }, listed) : null),
      ),
    );
  }

  // The countdown moves every second between readings.
  ticker = setInterval(() => {
    if (event && event.status !== "finished" && document.visibilityState === "visible") {
      const countdown = root.querySelector("[data-testid=countdown]");
      if (countdown) countdown.textContent = statusLine().textContent;
    }
  }, 1000);

  render();
  load();
  return {
    render,
    leave() {
      alive = false;
      clearTimeout(timer);
      clearInterval(ticker);
      presses.stop();
      document.removeEventListener("visibilitychange", visibility);
    },
  };
}

/** The lobby's small card: a link to the events, with how many run or are coming (read again
 * at most every LIST_MS, however often the lobby renders). */
let cardCount = null;
let cardRead = 0;
export function tournamentsCard() {
  if (Date.now() - cardRead > LIST_MS) {
    cardRead = Date.now();
    call("GET", "/api/tournaments")
      .then((found) => {
        cardCount = found.running.length + found.upcoming.length;
        const count = document.querySelector("[data-testid=tournaments-card] .muted");
        if (count) count.textContent = cardCount ? t("tournaments_live_n", { n: cardCount }) : "";
      })
      .catch(() => {});
  }
  return h(
    "section",
    { class: "panel tournaments-card", "data-testid": "tournaments-card" },
    h("a", { href: "/tournaments", "data-link": true }, h("strong", {}, t("tournaments_title"))),
    " ",
    h("span", { class: "muted" }, cardCount ? t("tournaments_live_n", { n: cardCount }) : ""),
  );
}
