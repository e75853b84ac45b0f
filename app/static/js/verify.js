// "Verify this match" (/history/{id}/verify): re-deals every deal of a finished match in the
// browser from its published seeds (docs/fairness.md). It first checks the match seed: the server
// seed against the commitment published before anyone contributed (and the one this browser saw
// when it sent its own contribution), the computer players' parts, this browser's own part, and
// the match seed made of them all. Then, deal by deal, the seed, the
// commitment (also against the ones this browser saw while the match was played), the dealer,
// both hands, the turned trump card and every card drawn from the stock, and that every card
// played was in its player's hand.

import { call } from "./api.js";
import { h, mount } from "./dom.js";
import { failure } from "./errors.js";
import { t } from "./i18n.js";
import { MISSING, botContribution, commitment, dealSeed, dealt, firstDealer, matchSeed, nextDealer, randomContribution, shuffled } from "./fairness.js";

const SEEN = "talon.commitments";
const SENT = "talon.contributions";

/** A fresh contribution for table `tableId`, remembered with the commitment to the server's
 *  seed this browser saw before sending it (null when it saw none: a table opened with it). */
export function contribute(tableId, seenCommitment) {
  const value = randomContribution();
  try {
    const all = JSON.parse(localStorage.getItem(SENT) || "{}");
    all[value] = { table: tableId || null, commitment: seenCommitment || null };
    const values = Object.keys(all);
    if (values.length > 100) delete all[values[0]]; // keep the newest only
    localStorage.setItem(SENT, JSON.stringify(all));
  } catch {
    // storage full or refused: the contribution counts all the same
  }
  return value;
}

function sentContributions() {
  try {
    return JSON.parse(localStorage.getItem(SENT) || "{}");
  } catch {
    return {};
  }
}

/** The checks of the match seed: {name: true/false/null}; null where there is nothing to check
 *  (a match older than contributions, no computer player, nothing sent from this browser). */
export function verifySeed(replay) {
  if (!replay.server_seed || !replay.contributions) {
    return { server_commitment: null, seen_commitment: null, bots: null, yours: null, match_seed: null };
  }
  const parts = replay.contributions;
  const sent = sentContributions();
  const mine = parts.filter((p) => p.source === "player" && sent[p.value]);
  const seenBefore = mine.map((p) => sent[p.value].commitment).filter(Boolean);
  const derived = parts.filter((p) => p.source !== "player");
  return {
    server_commitment: commitment(replay.server_seed) === replay.server_commitment,
    seen_commitment: seenBefore.length ? seenBefore.every((c) => c === replay.server_commitment) : null,
    bots: derived.length
      ? derived.every((p) => p.value === (p.source === "bot" ? botContribution(replay.server_seed, p.seat) : MISSING))
      : null,
    yours: mine.length ? true : null,
    match_seed:
      parts.every((p, i) => p.seat === i) && matchSeed(replay.server_seed, parts.map((p) => p.value)) === replay.seed,
  };
}

/** Remember a deal's commitment as it was published to this browser during the match. */
export function rememberCommitment(matchId, dealNo, value) {
  if (!matchId || !dealNo || !value) return;
  try {
    const all = JSON.parse(localStorage.getItem(SEEN) || "{}");
    all[matchId] = { ...(all[matchId] || {}), [dealNo]: value };
    const ids = Object.keys(all);
    if (ids.length > 50) delete all[ids[0]]; // keep the newest matches only
    localStorage.setItem(SEEN, JSON.stringify(all));
  } catch {
    // storage full or refused: the other checks still run
  }
}

function seenCommitments(matchId) {
  try {
    return JSON.parse(localStorage.getItem(SEEN) || "{}")[matchId] || {};
  } catch {
    return {};
  }
}

const sorted = (cards) => [...cards].sort().join(" ");

/** What the published record says about each deal: its start (hands, the turned card, the
 *  trump suit, the cards shown), its draws, its plays. */
function record(replay) {
  const deals = {};
  const first = replay.steps[0];
  const start = (hands, e) => ({ hands, trump: e.trump_card ?? null, suit: e.trump ?? null, shown: e.shown || [], published: e.commitment, dealer: e.dealer, draws: [], plays: [], exchanges: [] });
  deals[1] = start(first.hands, first.view);
  let current = 1;
  let before = first.hands;
  for (const step of replay.steps.slice(1)) {
    for (const e of step.events) {
      if (e.type === "deal_started") {
        current = e.deal_no;
        deals[current] = start(step.hands, e);
      } else if (e.type === "card_drawn") {
        deals[current].draws.push(e.card);
      } else if (e.type === "exchange") {
        deals[current].exchanges.push(e);
      } else if (e.type === "card_played") {
        deals[current].plays.push({ seat: e.seat, card: e.card, held: (before[e.seat] || []).includes(e.card) });
      }
    }
    before = step.hands;
  }
  return deals;
}

/** A finished match's replay with every step: its pages, fetched one after the other. */
async function wholeReplay(matchId) {
  const replay = await call("GET", `/api/matches/${matchId}/replay`);
  while (replay.next !== null && replay.next !== undefined) {
    const page = await call("GET", `/api/matches/${matchId}/replay?from=${replay.next}`);
    replay.steps.push(...page.steps);
    replay.next = page.next;
  }
  return replay;
}

/** Whether a deal's trump was fixed as its rules say: the card turned under the stock (and the
 *  first exchange took that card), the dealer's last card shown to all (no stock), or nothing
 *  yet (four-hand: the first card led after the bidding names the trump). */
function trumpCheck(rules, table, p, dealer) {
  const how = rules.trump_from || "turned";
  if (how === "turned") {
    return table.turned === p.trump && p.suit === table.turned.slice(-1) && (!p.exchanges.length || p.exchanges[0].took === table.turned);
  }
  if (how === "dealer_last") {
    const last = table.hands[dealer][table.hands[dealer].length - 1];
    const shown = p.shown.length === 1 && p.shown[0].seat === dealer && p.shown[0].card === last;
    return p.trump === null && shown && p.suit === last.slice(-1);
  }
  return p.trump === null && p.suit === null;
}

/** Every check of every deal: [{deal_no, order, checks: {name: true/false/null}}]. */
export function verifyMatch(replay) {
  const rules = replay.steps[0].view.rules;
  const published = record(replay);
  const seen = seenCommitments(String(replay.id));
  let dealer = replay.dealer ?? firstDealer(replay.seed, rules.players);
  return replay.deals.map((result) => {
    const k = result.deal_no;
    const seed = dealSeed(replay.seed, k);
    const order = shuffled(rules.deck, seed);
    const table = dealt(order, dealer, rules);
    const p = published[k] || { hands: [], trump: null, suit: null, shown: [], draws: [], plays: [], exchanges: [] };
    // An exchange puts the trump nine (or jack) under the stock in place of the turned card:
    // the first one takes the turned card, and the stock's last card is the last one given.
    const stock = [...table.stock];
    if (p.exchanges.length) stock[stock.length - 1] = p.exchanges[p.exchanges.length - 1].gave;
    const checks = {
      seed: seed === result.seed,
      commitment: commitment(result.seed) === result.commitment && result.commitment === p.published,
      seen: seen[k] ? seen[k] === result.commitment : null,
      dealer: dealer === result.dealer && dealer === p.dealer,
      hands: p.hands.length === rules.players && table.hands.every((hand, seat) => sorted(hand) === sorted(p.hands[seat] || [])),
      trump: trumpCheck(rules, table, p, dealer),
      draws: p.draws.length <= stock.length && p.draws.every((card, i) => card === stock[i]),
      plays: p.plays.every((play) => play.held),
    };
    dealer = nextDealer(dealer, result, rules);
    return { deal_no: k, order, checks };
  });
}

const COLUMNS = ["seed", "commitment", "seen", "dealer", "hands", "trump", "draws", "plays"];
const SEED_CHECKS = ["server_commitment", "seen_commitment", "bots", "yours", "match_seed"];

export function verifyPage(root, matchId) {
  let rows = null;
  let seedChecks = null;
  let problem = null;

  async function load() {
    try {
      const replay = await wholeReplay(matchId);
      rows = verifyMatch(replay);
      seedChecks = verifySeed(replay);
    } catch (error) {
      problem = failure(error);
    }
    render();
  }

  function mark(value, none = "verify_not_seen") {
    if (value === null) return h("td", { class: "check none", title: t(none) }, "–");
    return h("td", { class: `check ${value ? "ok" : "bad"}` }, value ? "✓" : "✗");
  }

  function render() {
    const back = h("a", { class: "button ghost", href: `/history/${matchId}`, "data-link": true }, t("replay"));
    if (problem) {
      mount(root, h("section", { class: "panel narrow", "data-testid": "verify-problem" }, h("p", {}, problem), back));
      return;
    }
    if (!rows) {
      mount(root, h("p", { class: "loading" }, t("loading")));
      return;
    }
    const ok =
      rows.every((r) => Object.values(r.checks).every((x) => x !== false)) &&
      Object.values(seedChecks).every((x) => x !== false);
    mount(
      root,
      h(
        "section",
        { class: "panel verify" },
        h("h1", {}, t("verify_title")),
        h("p", {}, t("verify_intro")),
        h("p", { class: `verdict ${ok ? "ok" : "bad"}`, "data-testid": "verdict", dataset: { ok: String(ok) }, role: "status" }, t(ok ? "verify_ok" : "verify_bad")),
        h("h2", {}, t("verify_seed_title")),
        h(
          "table",
          { class: "summary verify-seed", "data-testid": "verify-seed" },
          h(
            "tbody",
            {},
            SEED_CHECKS.map((c) => h("tr", { dataset: { check: c } }, h("th", { scope: "row" }, t(`verify_${c}`)), mark(seedChecks[c], "verify_nothing"))),
          ),
        ),
        h("h2", {}, t("verify_deals_title")),
        h(
          "table",
          { class: "summary verify-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), COLUMNS.map((c) => h("th", { scope: "col" }, t(`verify_${c}`))))),
          h(
            "tbody",
            {},
            rows.map((r) =>
              h("tr", { dataset: { deal: String(r.deal_no), deck: r.order.join(" ") } }, h("th", { scope: "row" }, String(r.deal_no)), COLUMNS.map((c) => mark(r.checks[c]))),
            ),
          ),
        ),
        back,
      ),
    );
  }

  render();
  load();
  return { render, leave() {} };
}
