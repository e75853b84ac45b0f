// Re-dealing a finished match from its published seeds, exactly as docs/fairness.md says:
// deal seeds, commitments, the first dealer, the word stream, the shuffle and the deal itself.
// SHA-256 is written out here (a few lines) so that the check runs the same everywhere, with
// nothing from the server but the published log.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of a text's UTF-8 bytes, as 32 bytes. */
export function sha256(text) {
  const data = new TextEncoder().encode(text);
  const length = Math.ceil((data.length + 9) / 64) * 64;
  const bytes = new Uint8Array(length);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(length - 8, Math.floor((data.length * 8) / 2 ** 32));
  view.setUint32(length - 4, (data.length * 8) >>> 0);
  const hash = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((x, i) => {
      hash[i] = (hash[i] + x) >>> 0;
    });
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  hash.forEach((x, i) => outView.setUint32(4 * i, x));
  return out;
}

export function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `hex(sha256(seed))`: the commitment published when a deal starts. */
export function commitment(seed) {
  return hex(sha256(seed));
}

/** The seed of deal `k` (1-based) of a match. */
export function dealSeed(matchSeed, k) {
  return hex(sha256(`talon-deal:${matchSeed}:${k}`));
}

/** The first dealer drawn from the match seed. */
export function firstDealer(matchSeed, players) {
  const digest = sha256(`talon-dealer:${matchSeed}`);
  return new DataView(digest.buffer).getUint32(0) % players;
}

const RANKS = { 24: "9JQKTA", 20: "JQKTA", 32: "789JQKTA" };

/** The unshuffled deck: by suit C, D, H, S, then by rank; 48 is the 24-card deck twice. */
export function deck(size) {
  if (size === 48) return [...deck(24), ...deck(24)];
  return [..."CDHS"].flatMap((suit) => [...RANKS[size]].map((rank) => rank + suit));
}

function* words(seed) {
  for (let i = 0; ; i++) {
    const block = sha256(`${seed}:${i}`);
    const view = new DataView(block.buffer);
    for (let k = 0; k < 8; k++) yield view.getUint32(4 * k);
  }
}

/** The deck order a seed gives, first card dealt first. */
export function shuffled(size, seed) {
  const cards = deck(size);
  const stream = words(seed);
  for (let i = size - 1; i > 0; i--) {
    const n = i + 1;
    const limit = Math.floor(2 ** 32 / n) * n;
    let w = stream.next().value;
    while (w >= limit) w = stream.next().value;
    const j = w % n;
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** Hands, the turned card, the cards set aside and the stock (drawn in order, the turned card
 *  last) of a deal, split as the engine splits it (docs/fairness.md, section 8): packets of 3,
 *  then the rest of the hand, go round from the dealer's left; Schnapsen turns its card after
 *  the first round. A deal without a turned card (`trump_from` other than "turned") deals the
 *  whole deck and has no stock. When what follows the turned card does not share out evenly
 *  among the players (German 32 for three), its first cards are set aside unseen. */
export function dealt(order, dealer, rules) {
  const n = rules.players;
  const hands = Array.from({ length: n }, () => []);
  let pos = 0;
  let turned = null;
  [3, rules.hand_size - 3].forEach((size, round) => {
    if (round === 1 && rules.deal_order === "schnapsen") turned = order[pos++];
    for (let k = 0; k < n; k++) {
      hands[(dealer + 1 + k) % n].push(...order.slice(pos, pos + size));
      pos += size;
    }
  });
  if ((rules.trump_from || "turned") !== "turned") return { hands, turned: null, aside: [], stock: [] };
  if (turned === null) turned = order[pos++];
  const spare = (order.length - pos + 1) % n;
  return { hands, turned, aside: order.slice(pos, pos + spare), stock: [...order.slice(pos + spare), turned] };
}

/** The dealer of the deal after one dealt by `dealer` that ended as `result` says: the next
 *  seat, except that a four-hand deal everyone passed is dealt again by the same dealer when
 *  the table plays `all_pass: "same_dealer"`. */
export function nextDealer(dealer, result, rules) {
  if (result.termination === "all_passed" && rules.all_pass === "same_dealer") return dealer;
  return (dealer + 1) % rules.players;
}

/** What a seat that sent no contribution adds to the match seed. */
export const MISSING = "";

/** A computer player's contribution, drawn from the server's committed seed. */
export function botContribution(serverSeed, seat) {
  return hex(sha256(`talon-bot:${serverSeed}:${seat}`));
}

/** The match seed from the server's seed and every seat's contribution in seat order. */
export function matchSeed(serverSeed, contributions) {
  return hex(sha256(["talon-match", serverSeed, ...contributions].join(":")));
}

/** A fresh random contribution: 16 bytes from the browser's cryptographic generator, as hex. */
export function randomContribution() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}
