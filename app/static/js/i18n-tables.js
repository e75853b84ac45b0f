// Strings of tables of three and four and of the first visit (the deal log before trump is
// named, the buttons that seat a computer, the passkeys' address), in every language of i18n.js.

import { addStrings } from "./i18n.js";

addStrings({
  en: {
    ann_deal_no_trump: "Deal {n}: {name} deals, trump not named yet",
  },
  de: {
    ann_deal_no_trump: "Spiel {n}: {name} gibt, Trumpf noch nicht bestimmt",
  },
  pl: {
    ann_deal_no_trump: "Rozdanie {n}: rozdaje {name}, atut jeszcze nieznany",
  },
  it: {
    ann_deal_no_trump: "Mano {n}: distribuisce {name}, briscola non ancora scelta",
  },
  es: {
    ann_deal_no_trump: "Mano {n}: reparte {name}, triunfo aún sin elegir",
  },
});
