// The felt: every seat around the table, the stock with the turned trump, the trick and the
// scores. Shared by the live table and the replay viewer. It draws a picture; it decides nothing.

import { cardElement, sortHand, suitIcon } from "./cards.js";
import { h } from "./dom.js";
import { cardName, cardShort, t } from "./i18n.js";
import { presenceDot } from "./presence.js";

/**
 * @param {object} p
 *   view: the engine's view (or a replay step's view)
 *   names: player names by seat
 *   bottom: the seat drawn at the bottom (the viewer's seat, or 0)
 *   hands: {seat: card codes} for hands drawn face up (a player's own, or all in a replay)
 *   handCard: (code) => element for a playable own card (live table), else plain cards
 *   showLast: draw the last completed trick in the middle
 *   me: the viewer's seat (null for spectators and replays)
 *   callout: {seat, text} something another player just did, shown by their seat
 *   holdLast: keep the last trick in view in the corner once the next trick has begun
 *   presence: seat -> "connected", "away", "gone" or null: the dot by each name
 *   fresh: what the last update brought, animated once ({played: Set, dealt, collected})
 */
export function board(p) {
  const v = p.view;
  const others = [];
  for (let i = 1; i < v.seats; i++) {
    const seat = (p.bottom + i) % v.seats;
    others.push(seatRow(p, seat, seatPosition(seat, p.bottom, v.seats)));
  }
  return h(
    "div",
    { class: `felt seats-${v.seats}`, dataset: { toMove: v.to_move ?? "" } },
    others,
    h("div", { class: "middle" }, v.trump_card || v.stock ? stockArea(v) : trumpArea(v), trickArea(p), lastTrickPeek(p)),
    seatRow(p, p.bottom, "bottom"),
  );
}

// Where each seat sits, seen from the bottom seat, in playing order (clockwise): at four,
// partners face each other.
const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };

/** The place of `seat` on a felt of `n` seats drawn with `bottom` at the bottom. */
export function seatPosition(seat, bottom, n) {
  return (POSITIONS[n] || POSITIONS[2])[(seat - bottom + n) % n] || "top";
}

/** The viewer's partner at a partnership table (four-hand, German 48 with partners): the other
 *  seat of the viewer's side, or null (no partners, or a spectator). */
export function partnerOf(v, me) {
  if (me === null || me === undefined || !v.sides || !v.rules?.partners) return null;
  const seat = v.sides.findIndex((side, s) => s !== me && side === v.sides[me]);
  return seat >= 0 ? seat : null;
}

/** The name of each side: a seat's name, or the partners' names together. */
export function sideNames(v, names) {
  const sides = v.sides || names.map((_, seat) => seat);
  const count = Math.max(...sides) + 1;
  return Array.from({ length: count }, (_, side) =>
    sides.map((s, seat) => (s === side ? names[seat] || "?" : null)).filter(Boolean).join(" & "),
  );
}

function seatRow(p, seat, where) {
  const v = p.view;
  const name = p.names[seat] || "?";
  const onMove = v.to_move === seat && !v.deal_over;
  const stats = [h("span", { class: "chip" }, t("tricks", { n: v.tricks_won[seat] }))];
  if (v.scores) stats.push(h("span", { class: "chip score" }, t("score", { n: v.scores[seat] })));
  // A marriage declared before its declarer's first trick waits for that trick (the server
  // says how many points wait in `pending_marriages`).
  const pending = v.pending_marriages ? v.pending_marriages[seat] : 0;
  if (pending > 0) {
    const long = t("pending_long", { n: pending, name });
    stats.push(h("span", { class: "chip pending", title: long, "aria-label": long, "data-testid": "pending" }, t("pending_short", { n: pending })));
  }
  const label = h(
    "div",
    { class: "seat-label" },
    h("span", { class: "dot", "aria-hidden": "true" }),
    h("strong", { class: "name" }, name),
    p.presence ? presenceDot(p.presence(seat), name) : null,
    seat === p.me ? h("span", { class: "you" }, `(${t("you")})`) : null,
    seat === partnerOf(v, p.me) ? h("span", { class: "you partner", "data-testid": "partner" }, `(${t("your_partner")})`) : null,
    ...stats,
  );
  const faceUp = p.hands && p.hands[seat];
  const out = v.sitting_out === seat;
  // A partner sitting out a Luna keeps its cards but plays none: its own are still shown.
  const note = out ? h("p", { class: "sitting-out", "data-testid": "sitting-out" }, t("sits_out")) : null;
  const cards = faceUp ? ownHand(p, seat, faceUp) : out ? null : hiddenHand(v, seat, name);
  const hand = note && cards ? h("div", { class: "out-hand" }, note, cards) : note || cards;
  const callout =
    p.callout && p.callout.seat === seat ? h("div", { class: "callout", "data-testid": "callout" }, p.callout.text) : null;
  return h(
    "section",
    {
      class: `seat seat-${where}${onMove ? " on-move" : ""}`,
      dataset: { seat: String(seat) },
      "aria-label": name,
    },
    where === "bottom" ? [callout, hand, label] : [label, hand, callout],
  );
}

function fan(cards, className, label) {
  const n = cards.length;
  cards.forEach((el, i) => {
    const turn = n > 1 ? (i - (n - 1) / 2) * (18 / n) : 0;
    el.style.setProperty("--turn", `${turn.toFixed(1)}deg`);
    el.style.setProperty("--lift", `${(Math.abs(turn) * 0.6).toFixed(1)}px`);
  });
  return h("div", { class: `hand ${className}`, role: "group", "aria-label": label }, cards);
}

function ownHand(p, seat, codes) {
  const cards = sortHand(codes, p.view.trump).map((code) =>
    p.handCard && seat === p.me ? p.handCard(code) : cardElement(code, { zone: "hand" }),
  );
  if (p.fresh?.dealt && seat === p.me) {
    cards.forEach((el, i) => {
      el.classList.add("dealt");
      el.style.setProperty("--i", String(i));
    });
  }
  const label = seat === p.me ? t("hand_label") : p.names[seat] || "";
  return fan(cards, seat === p.me ? "mine" : "open", label);
}

function hiddenHand(v, seat, name) {
  const shown = v.shown.filter((s) => s.seat === seat).map((s) => s.card);
  const backs = Math.max(0, v.hand_counts[seat] - shown.length);
  const cards = [
    ...Array.from({ length: backs }, () => cardElement(null, { zone: "back" })),
    ...shown.map((code) => {
      const el = cardElement(code, { zone: "shown", label: `${t("shown_cards")}: ${cardName(code)}` });
      el.classList.add("shown");
      return el;
    }),
  ];
  const group = fan(cards, "backs", t("opponent_hand", { name, n: v.hand_counts[seat] }));
  group.append(h("span", { class: "count", "aria-hidden": "true" }, String(v.hand_counts[seat])));
  return group;
}

function stockArea(v) {
  const pile = [];
  if (v.trump_card) {
    const trump = cardElement(v.trump_card, { zone: "trump", label: t("trump_card", { card: cardName(v.trump_card) }) });
    trump.classList.add("turned");
    pile.push(trump);
  }
  const backs = Math.min(3, Math.max(0, v.stock - (v.trump_card ? 1 : 0)));
  for (let i = 0; i < backs; i++) {
    const back = cardElement(null, { zone: "stock" });
    back.style.setProperty("--depth", String(i));
    back.setAttribute("aria-hidden", "true");
    pile.push(back);
  }
  if (v.closed) pile.push(h("span", { class: "closed-mark" }, t("stock_closed")));
  // The turned card lies mostly under the stock: its rank is also written out beside it.
  const rank = v.trump_card
    ? h("span", { class: `trump-rank suit-${v.trump_card[1]}`, "aria-hidden": "true", "data-testid": "trump-rank" }, cardShort(v.trump_card))
    : null;
  return h(
    "div",
    { class: "stock-area", role: "group", "aria-label": t("stock_left", { n: v.stock }) },
    h("div", { class: "pile" }, pile),
    h(
      "div",
      { class: "stock-info" },
      h("span", { class: "stock-count", dataset: { stock: String(v.stock) }, "aria-hidden": "true" }, String(v.stock)),
      h("span", { class: "trump-label" }, t("trump"), " ", suitIcon(v.trump), rank),
    ),
  );
}

// Without a stock (three- and four-hand), the middle shows the trump suit once it is named.
function trumpArea(v) {
  return h(
    "div",
    { class: "stock-area no-stock" },
    h("span", { class: "trump-label" }, t("trump"), " ", v.trump ? suitIcon(v.trump) : t("trump_unnamed")),
  );
}

function trickArea(p) {
  const v = p.view;
  let cards = v.trick;
  let caption = null;
  let zone = "trick";
  // Between tricks the completed trick stays in the middle until the next card is led.
  if (!cards.length && v.last_trick && !v.deal_over) {
    cards = v.last_trick.cards;
    zone = "last";
    caption = t("trick_won_by", { name: p.names[v.last_trick.winner] || "?" });
  }
  if (p.finalTrick) {
    cards = p.finalTrick.cards;
    zone = "trick";
  }
  return h(
    "div",
    {
      class: `trick${zone === "last" ? " collected" : ""}${zone === "last" && p.fresh?.collected ? ` collect-${p.fresh.collected}` : ""}`,
      role: "group",
      "aria-label": t("trick_label"),
    },
    h(
      "div",
      { class: "trick-cards" },
      cards.map((c) => {
        const label = t("played_by", { name: p.names[c.seat] || "?", card: cardName(c.card) });
        const el = cardElement(c.card, { zone, label });
        el.classList.add(`from-${seatPosition(c.seat, p.bottom, v.seats)}`);
        if (p.fresh?.played.has(c.card)) el.classList.add("arrive");
        return el;
      }),
    ),
    caption ? h("span", { class: "trick-caption" }, caption) : null,
  );
}

function lastTrickPeek(p) {
  const v = p.view;
  const held = p.holdLast && v.trick.length > 0; // the next trick has begun: keep this one in view
  if (!(p.showLast || held) || !v.last_trick) {
    return h("div", { class: "peek", hidden: true });
  }
  return h(
    "div",
    { class: "peek", role: "group", "aria-label": t("last_trick"), "data-testid": "peek" },
    h("span", { class: "peek-title" }, t("trick_won_by", { name: p.names[v.last_trick.winner] })),
    h(
      "div",
      { class: "peek-cards" },
      v.last_trick.cards.map((c) =>
        cardElement(c.card, { zone: "last", label: t("played_by", { name: p.names[c.seat] || "?", card: cardName(c.card) }) }),
      ),
    ),
  );
}

/** The score line: deal number and each side's game points against the target. */
export function scoreboard(v, names) {
  const sides = sideNames(v, names);
  // At a partnership table the viewer's side reads "you & (the partner)".
  const partner = partnerOf(v, v.seat);
  if (partner !== null) sides[v.sides[v.seat]] = t("you_and_partner", { partner: names[partner] || "?" });
  const points =
    sides.length === 2
      ? [
          h("span", { class: "gp-name" }, sides[0]),
          h("strong", { class: "gp" }, `${v.game_points[0]} : ${v.game_points[1]}`),
          h("span", { class: "gp-name" }, sides[1]),
        ]
      : sides.map((name, side) => h("span", { class: "gp-side" }, h("span", { class: "gp-name" }, name), " ", h("strong", { class: "gp" }, String(v.game_points[side]))));
  return h(
    "div",
    // At three and four seats names (and a partnership's two) wrap rather than being cut.
    { class: `scoreboard${v.rules.players > 2 ? " scoreboard-many" : ""}` },
    h("span", { class: "deal-no" }, t("deal_no", { n: v.deal_no })),
    h(
      "span",
      { class: "game-points", "aria-label": t("game_points") },
      points,
      h("span", { class: "target" }, t("to_target", { n: v.rules.target })),
    ),
  );
}
