// A finished deal told in numbers and in words: card points, scores, tricks, game points, why.

import { cardElement, suitIcon } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const TERMINATION_WHY = {
  reached_66: "why_reached_66",
  claim: "why_claim",
  wrong_claim: "why_wrong_claim",
  last_trick: "why_last_trick",
  closed: "why_closed",
  close_failed: "why_close_failed",
  resign: "why_resign",
};

/** The words for a deal's result (the numbers all come from the server's result). */
export function why(r, names, rules) {
  const winner = names[r.winner];
  const closer = r.closed_by !== null && r.closed_by !== undefined ? names[r.closed_by] : winner;
  const loser = names[(r.winner + 1) % names.length];
  const who = r.termination === "resign" ? loser : winner;
  const lines = [t(TERMINATION_WHY[r.termination] || "why_reached_66", { name: who, closer })];
  const value = r.game_points[r.winner];
  const negative = r.game_points.findIndex((x) => x < 0);
  if (negative >= 0) {
    lines.push(t("value_minus", { name: names[negative], n: -r.game_points[negative] }));
  } else if (["reached_66", "claim", "closed", "last_trick"].includes(r.termination)) {
    if (value === 3) lines.push(t(rules.schwarz === "zero_points" ? "value_3_zero" : "value_3"));
    else if (value === 2) lines.push(t("value_2"));
    else if (value === 1 && r.termination !== "last_trick") lines.push(t("value_1"));
  }
  return lines.join(" ");
}

/** Title, last trick, table of numbers and the reason, for a dialog or the replay. */
export function dealSummary(r, names, rules, trick, titleId = "dialog-title") {
  const row = (label, values) =>
    h("tr", {}, h("th", { scope: "row" }, label), values.map((x) => h("td", {}, String(x))));
  return [
    h("h2", { id: titleId }, t("deal_summary", { n: r.deal_no })),
    trick && trick.length
      ? h("div", { class: "summary-trick" }, trick.map((c) => cardElement(c.card, { zone: "summary" })))
      : null,
    h("p", { class: "winner-line" }, suitIcon(r.trump), " ", t("wins_deal", { name: names[r.winner] })),
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
        row(t("game_points_won"), r.game_points.map((x) => (x > 0 ? `+${x}` : x))),
      ),
    ),
    h("p", { class: "why" }, h("strong", {}, `${t("why")}: `), why(r, names, rules)),
  ];
}
