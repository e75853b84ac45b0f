// Folds the events of one `update` into the viewer's picture (the view of the last welcome).
// It only applies what the server says happened; `to_move` and what the viewer may do (`legal`,
// `unplayable`, `declarable`) come with the update.

const HANDLERS = {
  deal_started(v, e) {
    const n = v.seats;
    Object.assign(v, {
      deal_no: e.deal_no,
      dealer: e.dealer,
      trump: e.trump,
      trump_card: e.trump_card,
      stock: e.stock,
      hand_counts: [...e.hand_counts],
      commitment: e.commitment,
      hand: [],
      closed: false,
      closed_by: null,
      trick: [],
      last_trick: null,
      tricks: [],
      tricks_won: Array(n).fill(0),
      scores: v.rules.claim === "manual" ? null : Array(n).fill(0),
      pending_marriages: Array(n).fill(0),
      marriages: [],
      shown: [...(e.shown || [])],
      aside: e.aside || 0,
      bidding: e.bidding || false,
      bids: [],
      high_bid: null,
      sitting_out: null,
      deal_over: false,
    });
  },
  hand_dealt(v, e) {
    if (e.cards && e.seat === v.seat) v.hand = [...e.cards];
  },
  card_played(v, e) {
    if (e.seat === v.seat) v.hand.splice(v.hand.indexOf(e.card), 1);
    v.hand_counts[e.seat] -= 1;
    v.trick.push({ seat: e.seat, card: e.card });
    const i = v.shown.findIndex((s) => s.seat === e.seat && s.card === e.card);
    if (i >= 0) v.shown.splice(i, 1);
  },
  marriage_declared(v, e) {
    v.marriages.push({ seat: e.seat, suit: e.suit, points: e.points });
    if (!v.shown.some((s) => s.seat === e.seat && s.card === e.shown)) v.shown.push({ seat: e.seat, card: e.shown });
    if (!e.credited) v.pending_marriages[e.seat] += e.points;
    setScore(v, e);
  },
  marriage_credited(v, e) {
    v.pending_marriages[e.seat] -= e.points;
    setScore(v, e);
  },
  trick_won(v, e) {
    const trick = { winner: e.seat, cards: e.cards };
    v.tricks.push(trick);
    v.last_trick = trick;
    v.trick = [];
    v.tricks_won[e.seat] += 1;
    setScore(v, e);
  },
  card_drawn(v, e) {
    v.hand_counts[e.seat] += 1;
    v.stock -= 1;
    if (e.seat === v.seat) v.hand.push(e.card);
    if (e.trump_card) {
      v.trump_card = null;
      v.shown.push({ seat: e.seat, card: e.card });
    }
  },
  exchange(v, e) {
    if (e.seat === v.seat) v.hand[v.hand.indexOf(e.gave)] = e.took;
    v.trump_card = e.gave;
    v.shown.push({ seat: e.seat, card: e.took });
  },
  closed(v, e) {
    v.closed = true;
    v.closed_by = e.seat;
  },
  last_trick_bonus: setScore,
  trump_named(v, e) {
    v.trump = e.trump;
  },
  bid(v, e) {
    v.bids.push({ seat: e.seat, level: e.level });
    v.high_bid = { seat: e.seat, level: e.level };
  },
  passed(v, e) {
    v.bids.push({ seat: e.seat, level: null });
  },
  bidding_over(v, e) {
    v.bidding = false;
    v.sitting_out = e.sitting_out;
  },
  claim() {},
  resigned() {},
  deal_over(v, e) {
    v.deal_results.push(e.result);
    v.game_points = [...e.game_points];
    v.deal_over = true;
  },
  match_over(v, e) {
    v.match_over = true;
    v.match_winner = e.winner;
    e.seeds.forEach((seed, i) => {
      if (v.deal_results[i]) v.deal_results[i].seed = seed;
    });
  },
};

function setScore(v, e) {
  if ("score" in e && v.scores) v.scores[e.seat] = e.score;
}

/** The picture after an update frame; `view` is not changed. */
export function fold(view, frame) {
  const v = structuredClone(view);
  for (const event of frame.events) {
    const handler = HANDLERS[event.type];
    if (handler) handler(v, event);
  }
  v.to_move = frame.to_move;
  // What this viewer may do now comes whole with every update: the client decides no rule.
  v.legal = frame.legal;
  v.unplayable = frame.unplayable || {};
  v.declarable = frame.declarable || [];
  return v;
}
