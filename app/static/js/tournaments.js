// Tournaments in the browser (GET /api/tournaments and /api/tournaments/{id}):
//   /tournaments       the events, upcoming, running and finished
//   /tournaments/{id}  one event: countdown to the start, join and withdraw, the standings
//                      (computer entrants marked), the rounds and their pairings, the player's
//                      game under way one click away, and the podium once finished.
// The event page reads the event every few seconds while it is visible; when the player is
// newly paired, the page goes to the table by itself.

import { call, me } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { failure } from "./errors.js";
import "./i18n-tournaments.js";
import { t } from "./i18n.js";

const POLL_MS = 2500;
const LIST_MS = 10000;
const STATUSES = ["running", "upcoming", "finished"];

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

/** The list of events: upcoming, running, finished. */
export function tournamentsPage(root) {
  let found = null;
  let alive = true;
  let timer = null;

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

  function render() {
    mount(
      root,
      h(
        "section",
        { class: "panel tournaments-page", "data-testid": "tournaments" },
        h("h1", {}, t("tournaments_title")),
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
      ),
    );
  }

  render();
  load();
  return {
    render,
    leave() {
      alive = false;
      clearTimeout(timer);
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

  async function act(path) {
    if (busy) return;
    busy = true;
    try {
      event = await call("POST", `/api/tournaments/${encodeURIComponent(id)}/${path}`);
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
    if (open && (!you || you.withdrawn)) {
      if (!me()) parts.push(h("a", { class: "button", href: "/account", "data-link": true }, t("tournament_sign_in")));
      else parts.push(h("button", { class: "button primary", type: "button", "data-action": "join-tournament", onclick: () => act("join") }, t("tournament_join")));
    } else if (open && you && !you.withdrawn) {
      parts.push(h("span", { class: "muted", "data-testid": "tournament-joined" }, t("tournament_you_are_in")));
      parts.push(h("button", { class: "button ghost", type: "button", "data-action": "withdraw-tournament", onclick: () => act("withdraw") }, t("tournament_withdraw")));
    }
    return parts.length ? h("div", { class: "tournament-actions" }, parts) : null;
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
