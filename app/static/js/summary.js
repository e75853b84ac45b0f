// A finished deal told in numbers and in words: card points, scores, tricks, game points, why.

import { sideNames } from "./board.js";
import { cardElement, suitIcon } from "./cards.js";
import { h } from "./dom.js";
import { cardName, t } from "./i18n.js";

const TERMINATION_WHY = {
  reached_66: "why_reached_66",
  claim: "why_claim",
  wrong_claim: "why_wrong_claim",
  last_trick: "why_last_trick_66",
  closed: "why_closed",
  close_failed: "why_close_failed",
  resign: "why_resign",
  void: "why_void",
  all_passed: "why_all_passed",
  bid_made: "why_bid_made",
  bid_failed: "why_bid_failed",
};

/**
 * The words for a deal's result. Every number and the way the deal ended come from the server's
 * result (`termination`, `played_out`, `winner` and `game_points` per side, `closed_by`,
 * `resigned`, `bid`); the table's options (`rules`) only pick the sentence that names the rule
 * behind the number. `names` are the seats' names, `sides` each side's (a seat's, or two
 * partners' together: winners and game points count sides).
 */
export function why(r, names, rules, sides = names) {
  const winner = sides[r.winner];
  const closer = r.closed_by !== null && r.closed_by !== undefined ? names[r.closed_by] : winner;
  const claimer = claimant(r, names, sides);
  const who = r.termination === "resign" ? names[r.resigned] : r.termination === "claim" || r.termination === "wrong_claim" ? claimer : winner;
  const bid = r.bid ? { bidder: names[r.bid.seat], level: r.bid.level } : {};
  const key = r.termination === "last_trick" && r.played_out ? "why_last_trick" : TERMINATION_WHY[r.termination];
  const lines = [t(key || "why_reached_66", { name: who, closer, ...bid })];
  lines.push(...valueLines(r, sides, rules, closer));
  return lines.join(" ");
}

/** Who claimed 66 in a deal ended by a claim: the result's `claimed` seat. A result stored
 *  before it was recorded names only the winner: the claimer of a right claim won; with two
 *  sides a wrong claim's claimer is the other side; otherwise it cannot be told ("?"). */
function claimant(r, names, sides) {
  if (r.claimed !== undefined && r.claimed !== null) return names[r.claimed] || "?";
  if (r.termination === "claim") return sides[r.winner];
  return sides.length === 2 ? sides[1 - r.winner] : "?";
}

function valueLines(r, names, rules, closer) {
  const points = r.game_points || [];
  if (r.termination === "bid_made" || r.termination === "bid_failed") {
    return points.flatMap((n, side) => {
      if (n < 0) return [t("value_minus", { name: names[side], n: -n })];
      if (n > 0 && side === r.winner && r.termination === "bid_made") return [t("value_bid_made", { n })];
      return n > 0 ? [t("value_defenders", { name: names[side], n })] : [];
    });
  }
  const negative = points.findIndex((x) => x < 0);
  if (negative >= 0) {
    const key = r.termination === "close_failed" ? "value_close_failed_minus" : "value_minus";
    return [t(key, { name: names[negative], closer, n: -points[negative] })];
  }
  const n = points[r.winner];
  const name = names[r.winner];
  if (!n) return [];
  const plain = () => t(`value_${n}${n === 3 && rules.schwarz === "zero_points" ? "_zero" : ""}`);
  switch (r.termination) {
    case "close_failed":
      if (rules.close_fail === "closer_value_min_2") return [t("value_close_failed_value", { name, n, closer })];
      return [t(n === 3 ? "value_close_failed_3" : "value_close_failed_2", { name, closer })];
    case "wrong_claim":
      if (rules.wrong_claim === "claimer_value") return [t("value_wrong_claim_value", { name, n })];
      return [t(n === 3 ? "value_wrong_claim_3" : "value_wrong_claim_2", { name })];
    case "closed":
      return [t(`value_${n}${n === 3 && rules.schwarz === "zero_points" ? "_zero" : ""}_closed`)];
    case "last_trick":
      // The server says whether the played-out rule gave the point or the last trick took the
      // winner to 66 (then the deal is valued like any other).
      return [r.played_out ? t("value_last_trick") : plain()];
    case "reached_66":
    case "claim":
      return [plain()];
    default:
      return [];
  }
}

/**
 * The tricks of the deal an update ended, from the view before it and its events: every trick
 * won, then the cards of a trick the deal's end left open (a marriage led to 66) with
 * `winner: null`. The next deal, folded in the same update, no longer has them.
 */
export function endedDealTricks(before, events) {
  const tricks = [...before.tricks];
  let open = [...before.trick];
  for (const e of events) {
    if (e.type === "card_played") open.push({ seat: e.seat, card: e.card });
    if (e.type === "trick_won") {
      tricks.push({ winner: e.seat, cards: e.cards });
      open = [];
    }
    if (e.type === "deal_over") break;
  }
  return open.length ? [...tricks, { winner: null, cards: open }] : tricks;
}

/** Every trick of the deal in order: its cards, each labelled with its player, and its winner
 * (`winner: null`: a trick the deal's end left open). */
export function trickList(tricks, names) {
  if (!tricks || !tricks.length) return null;
  return h(
    "ol",
    { class: "trick-list", "aria-label": t("tricks_of_deal"), "data-testid": "trick-list" },
    tricks.map((trick, i) =>
      h(
        "li",
        { class: "trick-row" },
        h("span", { class: "trick-no" }, `${i + 1}.`),
        h(
          "span",
          { class: "trick-row-cards" },
          trick.cards.map((c) => cardElement(c.card, { zone: "summary", label: t("played_by", { name: names[c.seat] || "?", card: cardName(c.card) }) })),
        ),
        h("span", { class: "trick-winner" }, trick.winner === null ? t("trick_left_open") : t("trick_won_by", { name: names[trick.winner] || "?" })),
      ),
    ),
  );
}

/** Title, every trick, table of numbers and the reason, for a dialog or the replay.
 *  `tricks`: the deal's completed tricks, [{winner, cards: [{seat, card}]}], oldest first. */
export function dealSummary(r, names, rules, tricks, titleId = "dialog-title", seatSides = null) {
  // The side of each seat (partners share one); without it every seat is its own side.
  const sideOf = seatSides || names.map((_, seat) => seat);
  const sides = sideNames({ sides: sideOf }, names);
  const row = (label, values) =>
    h("tr", {}, h("th", { scope: "row" }, label), values.map((x) => h("td", {}, String(x))));
  return [
    h("h2", { id: titleId }, t("deal_summary", { n: r.deal_no })),
    h("p", { class: "winner-line" }, r.trump ? suitIcon(r.trump) : null, " ", r.winner === null ? t("nobody_wins_deal") : t("wins_deal", { name: sides[r.winner] })),
    h(
      "table",
      { class: "summary" },
      h("thead", {}, h("tr", {}, h("th", {}), names.map((x) => h("th", { scope: "col" }, x)))),
      h(
        "tbody",
        {},
        row(t("card_points"), r.card_points),
        row(t("final_score"), r.scores),
        row(t("tricks_won"), r.tricks),
        row(t("game_points_won"), sideOf.map((side) => r.game_points[side]).map((x) => (x > 0 ? `+${x}` : x))),
      ),
    ),
    h("p", { class: "why" }, h("strong", {}, `${t("why")}: `), why(r, names, rules, sides)),
    tricks && tricks.length ? h("details", { class: "deal-tricks", open: true }, h("summary", {}, t("tricks_of_deal")), trickList(tricks, names)) : null,
  ];
}
