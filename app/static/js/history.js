// History: your finished matches, and a replay viewer stepping through one with all hands open.
// The replay's pictures come from the server (GET /api/matches/{id}/replay), step by step, a
// page at a time: the next page is asked for as the viewer nears the end of what it has.

import { call, me } from "./api.js";
import { board, scoreboard } from "./board.js";
import { h, mount, toast } from "./dom.js";
import { failure } from "./errors.js";
import { cardShort, lang, seatName, seatNames, t } from "./i18n.js";
import "./i18n-tables.js";
import { dealSummary, endedDealTricks } from "./summary.js";

export function historyPage(root) {
  let matches = null;
  let alive = true;

  async function load() {
    const mine = me();
    if (!mine) {
      matches = [];
      render();
      return;
    }
    try {
      const page = await call("GET", `/api/matches?player=${encodeURIComponent(mine.id)}&limit=50`);
      if (!alive) return;
      matches = page.matches.filter((m) => m.status === "finished" || m.status === "aborted");
    } catch (error) {
      toast(failure(error));
      matches = [];
    }
    render();
  }

  function row(m) {
    const mine = me();
    // The server says which side each seat played for; the winner and game points are per side.
    const seat = m.players.find((p) => p.player_id === mine.id)?.seat ?? 0;
    const sideOf = (s) => (m.sides ? m.sides[s] : s);
    const side = sideOf(seat);
    const others = m.players.filter((p) => sideOf(p.seat) !== side);
    const won = m.winner === side;
    // An aborted match ended before every seat had acted: nobody won or lost it.
    const outcome = m.status === "aborted" ? "aborted" : won ? "won" : "lost";
    const theirs = m.game_points.filter((_, s) => s !== side);
    const when = new Date(m.finished_at || m.started_at).toLocaleString(lang(), {
      dateStyle: "medium",
      timeStyle: "short",
    });
    return h(
      "li",
      { class: `match-row ${outcome}`, dataset: { match: String(m.id) } },
      h("span", { class: `result ${outcome}` }, t(outcome)),
      h(
        "div",
        { class: "match-main" },
        h("strong", {}, t("vs", { a: mine.name, b: others.length ? others.map((p) => seatName(p, m.players) || p.name).join(", ") : "?" })),
        h("small", {}, `${t(`variant_${m.variant}`)} · ${when}`),
      ),
      h("strong", { class: "match-score" }, outcome === "aborted" ? "—" : [m.game_points[side], ...theirs].join(" : ")),
      h("a", { class: "button small", href: `/history/${m.id}`, "data-link": true }, t("replay")),
    );
  }

  function render() {
    let body;
    if (!me()) body = h("p", { class: "muted" }, t("history_need_name"));
    else if (matches === null) body = h("p", { class: "muted" }, t("loading"));
    else if (!matches.length) body = h("p", { class: "muted" }, t("history_empty"));
    else body = h("ul", { class: "matches" }, matches.map(row));
    mount(root, h("section", { class: "panel history" }, h("h1", {}, t("history_title")), body));
  }

  render();
  load();
  return {
    render,
    leave() {
      alive = false;
    },
  };
}

/** Steps asked for at a time, and how many frames before the end of those loaded the next
 * page is asked for. */
const PAGE = 200;
const AHEAD = 40;

/** The frames of a replay: each step, plus a frame that shows how each deal ended. `frames`:
 * the frames of the pages before (the new ones are appended to it). */
export function replayFrames(steps, frames = []) {
  let previous = frames.length ? frames[frames.length - 1] : null;
  for (const step of steps) {
    const over = step.events.find((e) => e.type === "deal_over");
    if (over && previous) {
      frames.push(dealEndFrame(previous, step, over));
      if (step.events.some((e) => e.type === "deal_started")) {
        frames.push({ view: step.view, hands: step.hands, step, caption: t("replay_start") });
      }
    } else {
      frames.push({ view: step.view, hands: step.hands, step, caption: null });
    }
    previous = frames[frames.length - 1];
  }
  return frames;
}

/** A step's view with the results of the deals over by then (a replay sends them once, in
 * the match record's `deals`, and each step says how many are over). */
export function withResults(view, step, deals) {
  return { ...view, deal_results: deals.slice(0, step.deals_done ?? 0) };
}

function dealEndFrame(previous, step, over) {
  const hands = previous.hands.map((hand) => [...hand]);
  let trick = [...previous.view.trick];
  for (const e of step.events) {
    if (e.type === "deal_over") break;
    if (e.type === "card_played") {
      hands[e.seat].splice(hands[e.seat].indexOf(e.card), 1);
      trick.push({ seat: e.seat, card: e.card });
    } else if (e.type === "trick_won") {
      trick = e.cards;
    } else if (e.type === "card_drawn") {
      hands[e.seat].push(e.card);
    }
  }
  const r = over.result;
  const view = {
    ...previous.view,
    hand_counts: hands.map((x) => x.length),
    trick: [],
    tricks_won: r.tricks,
    scores: r.scores,
    game_points: over.game_points,
    deal_over: true,
    to_move: null,
  };
  const tricks = endedDealTricks({ tricks: previous.view.tricks || [], trick: previous.view.trick }, step.events);
  return { view, hands, step, result: r, tricks, finalTrick: { cards: trick } };
}

export function replayPage(root, matchId) {
  let replay = null;
  let frames = [];
  let at = 0;
  let problem = null;
  let alive = true;
  // The match's analysis (GET /api/matches/{id}/analysis): advice by the version a move made.
  let advice = null;
  let analysis = "none"; // "none", "queued" (computed in the background), "ready" or "failed"
  let analysisTimer = null;

  let more = null; // where the next page of steps starts (null: every step is here)
  let fetching = null; // the page being fetched

  async function load() {
    try {
      replay = await call("GET", `/api/matches/${matchId}/replay?limit=${PAGE}`);
      frames = replayFrames(replay.steps);
      more = replay.next;
    } catch (error) {
      problem = failure(error);
    }
    if (alive) render();
    if (replay) follow(replay.analysis);
  }

  /** The next page of steps, appended to the frames (once at a time). */
  function fetchMore() {
    if (more === null) return Promise.resolve();
    if (!fetching) {
      fetching = call("GET", `/api/matches/${matchId}/replay?from=${more}&limit=${PAGE}`)
        .then((page) => {
          replayFrames(page.steps, frames);
          more = page.next;
          if (alive) render();
        })
        .catch((error) => toast(failure(error)))
        .finally(() => {
          fetching = null;
        });
    }
    return fetching;
  }

  // "Replay: Anna vs Ben", or every player of a table of three or four.
  function replayTitle() {
    const players = [...replay.players].sort((a, b) => a.seat - b.seat).map((p) => seatName(p, replay.players) || p.name);
    if (players.length === 2) return t("replay_title", { a: players[0], b: players[1] });
    return t("replay_title_many", { names: players.join(", ") });
  }

  function names() {
    return seatNames(replay.players);
  }

  // The match's record says how its analysis stands; the advice is fetched once it is done,
  // and the record is looked at again every few seconds while it is being computed.
  async function follow(status) {
    clearTimeout(analysisTimer);
    if (!alive) return;
    try {
      if (status === "done") {
        const found = new Map();
        let next = 0;
        while (next !== null) {
          const page = await call("GET", `/api/matches/${matchId}/analysis?from=${next}`);
          for (const move of page.moves) found.set(move.version, move);
          next = page.next ?? null;
        }
        advice = found;
        analysis = "ready";
      } else {
        analysis = status === "queued" || status === "running" ? "queued" : status === "failed" ? "failed" : "none";
      }
    } catch {
      analysis = "queued"; // offline for a moment: look again
    }
    if (analysis === "queued") analysisTimer = setTimeout(lookAgain, 3000);
    if (alive) render();
  }

  async function lookAgain() {
    try {
      follow((await call("GET", `/api/matches/${matchId}`)).analysis);
    } catch {
      follow("queued");
    }
  }

  async function askForAnalysis() {
    try {
      follow((await call("POST", `/api/matches/${matchId}/analysis`)).status);
    } catch (error) {
      toast(failure(error));
    }
  }

  /** The advice on the move that led to this frame: its mark and what was better. */
  function analysisPanel(frame) {
    if (replay.status === "aborted") return null; // no play to analyse
    if (analysis === "none") {
      return me() ? h("button", { class: "button small", type: "button", "data-action": "analyse", onclick: askForAnalysis }, t("analysis_ask")) : null;
    }
    if (analysis === "queued") return h("p", { class: "muted", "data-testid": "analysis-queued" }, t("analysis_queued"));
    if (analysis === "failed") return h("p", { class: "muted" }, t("analysis_failed"));
    const move = frame.caption ? null : advice.get(frame.step.version);
    if (!move) return null;
    const better = move.lost > 0; // an equal move is no better
    return h(
      "div",
      { class: `analysis ${move.mark || "good"}`, "data-testid": "analysis-move" },
      // A move that lost a little, too little for a mark, is close, not good: "Better" follows.
      h("strong", {}, move.mark ? t(`mark_${move.mark}`) : better ? t("analysis_close") : t("analysis_good")),
      move.mark ? h("span", {}, " ", t("analysis_lost", { n: move.lost })) : null,
      better ? h("p", {}, t("analysis_best", { move: moveText(move.best, move.seat) })) : null,
    );
  }

  function describe(frame) {
    if (frame.caption) return frame.caption;
    const s = frame.step;
    return s.action ? moveText(s.action, s.seat, s.events) : t("replay_start");
  }

  /** A move in words; `events` (what it did) give a marriage its points. */
  function moveText(a, seat, events = []) {
    const name = names()[seat];
    if (a.type === "play" && a.marriage) {
      const points = events.find((e) => e.type === "marriage_declared")?.points ?? "";
      return t("replay_marriage", { name, card: cardShort(a.card), points });
    }
    if (a.type === "play") return t("replay_play", { name, card: cardShort(a.card) });
    return t(`replay_${a.type}`, { name });
  }

  function go(index) {
    if (index > frames.length - 1 && more !== null) {
      const had = frames.length;
      fetchMore().then(() => go(frames.length > had ? index : frames.length - 1));
      return;
    }
    at = Math.max(0, Math.min(frames.length - 1, index));
    if (at >= frames.length - AHEAD) fetchMore();
    render();
    root.querySelector(".replay-controls [data-keep-focus]")?.focus();
  }

  function dealOf(frame) {
    return frame.result ? frame.result.deal_no : frame.view.deal_no;
  }

  function jumpDeal(direction) {
    const current = dealOf(frames[at]);
    if (direction > 0) {
      const next = frames.findIndex((f, i) => i > at && dealOf(f) > current);
      if (next < 0 && more !== null) {
        const had = frames.length;
        fetchMore().then(() => (frames.length > had ? jumpDeal(direction) : go(frames.length - 1)));
        return;
      }
      go(next < 0 ? frames.length - 1 : next);
    } else {
      const start = frames.findIndex((f) => dealOf(f) === current);
      const target = at > start ? start : frames.findIndex((f) => dealOf(f) === current - 1);
      go(target < 0 ? 0 : target);
    }
  }

  // The arrow keys step through the replay wherever the focus is, except in a form field.
  function keys(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
    if (!replay || problem) return;
    const moves = { ArrowRight: () => go(at + 1), ArrowLeft: () => go(at - 1), PageDown: () => jumpDeal(1), PageUp: () => jumpDeal(-1) };
    if (moves[event.key]) {
      event.preventDefault();
      moves[event.key]();
    }
  }

  function control(label, action, symbol, keep = false) {
    return h("button", { class: "button", type: "button", "aria-label": label, title: label, onclick: action, "data-keep-focus": keep || null }, symbol);
  }

  function render() {
    if (problem) {
      mount(
        root,
        h(
          "section",
          { class: "panel narrow", "data-testid": "replay-problem" },
          h("p", {}, problem),
          h(
            "div",
            { class: "dialog-buttons" },
            h("a", { class: "button", href: "/history", "data-link": true }, t("back_to_history")),
            h("a", { class: "button ghost", href: "/", "data-link": true }, t("back_to_lobby")),
          ),
        ),
      );
      return;
    }
    if (!replay) {
      mount(root, h("p", { class: "loading" }, t("loading")));
      return;
    }
    const frame = frames[at];
    const n = names();
    const mine = me();
    const bottom = mine ? (replay.players.find((p) => p.player_id === mine.id)?.seat ?? 0) : 0;
    const view = withResults(frame.view, frame.step, replay.deals);
    const felt = board({
      view,
      names: n,
      bottom,
      me: null,
      hands: Object.fromEntries(frame.hands.map((hand, seat) => [seat, hand])),
      finalTrick: frame.finalTrick,
    });
    mount(
      root,
      h(
        "section",
        { class: "table-page replay", dataset: { frame: String(at) } },
        h(
          "div",
          { class: "table-head" },
          h("h1", { class: "replay-title" }, replayTitle()),
          h("a", { class: "button small ghost", href: `/history/${matchId}/verify`, "data-link": true, "data-action": "verify" }, t("verify_link")),
          scoreboard(view, n),
        ),
        h(
          "div",
          { class: "table-body" },
          felt,
          h(
            "aside",
            // How the analysis stands ("none", "queued", "ready", "failed"): the advice shows
            // once it is "ready".
            { class: "side", "data-analysis": analysis },
            h(
              "div",
              { class: "replay-controls", role: "toolbar", "aria-label": t("replay") },
              control(t("prev_deal"), () => jumpDeal(-1), "◀◀"),
              control(t("prev_step"), () => go(at - 1), "◀"),
              control(t("next_step"), () => go(at + 1), "▶", true),
              control(t("next_deal"), () => jumpDeal(1), "▶▶"),
            ),
            h("p", { class: "step-of" }, t("step_of", { i: at + 1, n: more === null ? frames.length : `${frames.length}+` })),
            h("p", { class: "step-caption", "aria-live": "polite" }, describe(frame)),
            analysisPanel(frame),
            frame.result ? h("div", { class: "replay-summary" }, dealSummary(frame.result, n, replay.rules, frame.tricks, "replay-deal", frame.view.sides)) : null,
          ),
        ),
      ),
    );
  }

  document.addEventListener("keydown", keys);
  render();
  load();
  return {
    render,
    leave() {
      alive = false;
      clearTimeout(analysisTimer);
      document.removeEventListener("keydown", keys);
    },
  };
}
