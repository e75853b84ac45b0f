// Rematch by consent, as the match-end dialog shows it: the Rematch button offers; the other
// players see who offers, with Accept / Decline and the seconds left; the offerer sees who has
// accepted and that it waits; a declined or expired offer is said, and the button is back.
// The server decides everything (its `rematch` frames); this only draws them.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The client's record of a `rematch` frame (or a REST answer's `rematch`): a standing offer
 *  with its local deadline, or the offer's end to show. */
export function rematchFrom(frame) {
  return {
    offeredBy: frame.offered_by,
    accepted: frame.accepted || [],
    outcome: frame.outcome,
    declinedBy: frame.declined_by,
    deadline: Date.now() + (frame.seconds_left || 0) * 1000,
  };
}

/** Whole seconds until the offer expires, as this browser counts them down. */
export function secondsLeft(offer) {
  return Math.max(0, Math.ceil((offer.deadline - Date.now()) / 1000));
}

/** What a standing offer or its end says, and the buttons that go with it (in the dialog's
 *  footer): `seat` is this viewer's (null: spectator), `names` every seat's name, `label` the
 *  offer button's text (a table back to waiting after an abort offers a "new match"). */
export function rematchParts(offer, seat, names, { offer: onOffer, decline: onDecline, label = "rematch" }) {
  const seated = seat !== null && seat !== undefined;
  const offerButton = seated ? h("button", { class: "button primary", type: "button", "data-action": "rematch", onclick: onOffer }, t(label)) : null;
  if (!offer || offer.outcome === "started") return { notice: null, buttons: [offerButton] };
  if (offer.outcome !== "pending") {
    const by = names[offer.declinedBy];
    const text =
      offer.outcome === "expired" ? t("rematch_expired") : offer.declinedBy === offer.offeredBy ? t("rematch_withdrawn", { name: by }) : t("rematch_declined", { name: by });
    return { notice: h("p", { class: "rematch-offer", "data-testid": "rematch-ended", role: "status" }, text), buttons: [offerButton] };
  }
  const waiting = names.map((_, s) => s).filter((s) => !offer.accepted.includes(s));
  const mine = seated && offer.accepted.includes(seat);
  const lines = [
    h("strong", {}, t("rematch_offers", { name: names[offer.offeredBy] })),
    " · ",
    h("span", { "data-testid": "rematch-seconds" }, t("rematch_seconds", { n: secondsLeft(offer) })),
  ];
  if (mine) {
    lines.push(h("br"), t("rematch_waiting", { names: waiting.map((s) => names[s]).join(", ") }));
    lines.push(h("br"), t("rematch_accepted", { names: offer.accepted.map((s) => names[s]).join(", ") }));
  }
  const notice = h("p", { class: "rematch-offer", "data-testid": "rematch-offer", "data-mine": String(mine), role: "status" }, lines);
  if (!seated) return { notice, buttons: [] };
  if (mine) {
    const withdraw = offer.offeredBy === seat ? h("button", { class: "button ghost", type: "button", "data-action": "rematch-decline", onclick: onDecline }, t("rematch_withdraw")) : null;
    return { notice, buttons: [withdraw] };
  }
  return {
    notice,
    buttons: [
      h("button", { class: "button primary", type: "button", "data-action": "rematch-accept", onclick: onOffer }, t("rematch_accept")),
      h("button", { class: "button ghost", type: "button", "data-action": "rematch-decline", onclick: onDecline }, t("rematch_decline")),
    ],
  };
}
