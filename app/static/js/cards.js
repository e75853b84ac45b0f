// Cards drawn as SVG: corner indices, pips for number cards, a framed letter for court cards.
// Suit pips are the <symbol>s in index.html; colours come from CSS (two- or four-colour deck).

import { cardName, rankLetter, t } from "./i18n.js";

const CODE = /^[789TJQKA][CDHS]$/;
const SUIT_ORDER = ["C", "H", "S", "D"]; // black, red, black, red
const STRENGTH = "789JQKTA";

// Pip centres for number cards in a 100 x 140 card (x, y, upside down).
const COLUMNS = { l: 30, m: 50, r: 70 };
const PIPS = {
  7: ["l24", "r24", "m47", "l70", "r70", "l116", "r116"],
  8: ["l24", "r24", "m47", "l70", "r70", "m93", "l116", "r116"],
  9: ["l24", "r24", "l55", "r55", "m70", "l85", "r85", "l116", "r116"],
  T: ["l24", "r24", "m40", "l55", "r55", "l85", "r85", "m100", "l116", "r116"],
};

export function isCard(code) {
  return typeof code === "string" && CODE.test(code);
}

/** Cards sorted by suit (trump last) and by strength, for a hand fanned left to right. */
export function sortHand(cards, trump) {
  const order = SUIT_ORDER.filter((s) => s !== trump).concat(trump ? [trump] : []);
  return [...cards].sort(
    (a, b) =>
      order.indexOf(a[1]) - order.indexOf(b[1]) || STRENGTH.indexOf(a[0]) - STRENGTH.indexOf(b[0]),
  );
}

function pip(suit, x, y, size, flip = false) {
  const half = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - half}" y="${y - half}" width="${size}" height="${size}"${turn}/>`;
}

function face(rank, suit) {
  if (rank === "A") return pip(suit, 50, 70, 46);
  if (PIPS[rank]) {
    return PIPS[rank]
      .map((p) => {
        const y = Number(p.slice(1));
        return pip(suit, COLUMNS[p[0]], y, 17, y > 70);
      })
      .join("");
  }
  // Court cards: a framed panel with the letter and a pip.
  const letter = rankLetter(rank);
  return `<rect class="court" x="20" y="22" width="60" height="96" rx="5"/>
    <text class="court-letter" x="50" y="78" text-anchor="middle">${letter}</text>
    ${pip(suit, 50, 100, 18)}${pip(suit, 50, 38, 14, true)}`;
}

/** The SVG markup of a face-up card. */
export function cardSvg(code) {
  if (!isCard(code)) return backSvg();
  const [rank, suit] = code;
  const letter = rankLetter(rank);
  const corner = `<text class="idx" x="11" y="23" text-anchor="middle">${letter}</text>${pip(suit, 11, 33, 12)}`;
  return `<svg class="face suit-${suit}" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect class="paper" x="1" y="1" width="98" height="138" rx="8"/>
    ${corner}<g transform="rotate(180 50 70)">${corner}</g>
    ${face(rank, suit)}
  </svg>`;
}

export function backSvg() {
  return `<svg class="back" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
    <rect class="paper" x="1" y="1" width="98" height="138" rx="8"/>
    <rect x="8" y="8" width="84" height="124" rx="5" fill="url(#card-back)"/>
    <rect x="8" y="8" width="84" height="124" rx="5" class="back-frame"/>
  </svg>`;
}

/** A card element: a <button> when it can be chosen, otherwise a plain figure. */
export function cardElement(code, { button = false, zone = "", label = "" } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = "card";
  if (button) el.type = "button";
  else el.setAttribute("role", "img");
  if (isCard(code)) {
    el.dataset.card = code;
    el.innerHTML = cardSvg(code);
    el.setAttribute("aria-label", label || cardName(code));
  } else {
    el.classList.add("face-down");
    el.innerHTML = backSvg();
    el.setAttribute("aria-label", label || t("card_back"));
  }
  if (zone) el.dataset.zone = zone;
  return el;
}

/** A suit pip as a small inline SVG (for labels such as the trump indicator). */
export function suitIcon(suit) {
  const span = document.createElement("span");
  span.className = `suit-icon suit-${suit}`;
  span.innerHTML = `<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#suit-${suit}"/></svg>`;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", t(`suit_${suit}`));
  return span;
}
