// The strings of the rules page's frame and of a first game's hints at each game (the rules
// themselves are in app/static/rules/<lang>.md), in every language of i18n.js.

import { addStrings } from "./i18n.js";

addStrings({
  en: {
    rules_contents: "Contents",
    hint_trump_dealer_last: "The dealer's last card, shown face up in the dealer's hand, names the trump suit. There is no stock: follow suit and beat the trick if you can from the first card.",
    hint_trump_first_led: "First comes the bidding: bid a level (1 = 33 points, 2 = 66 ...) or pass. The highest bidder leads, and the suit of that first card is trump.",
    hint_goal_three_hand: "The first to 66 points wins the deal; if nobody reaches 66, the deal is dealt again. Each plays for themselves, to 10 game points.",
    hint_goal_bidding: "Your partner sits across the table. Your side scores the level it bid if its points reach it, and loses it if not; Luna (5) must take every trick.",
    hint_set_aside: "Three players: 7 cards each, and 2 cards lie set aside unseen for the deal. The winner of a trick draws first, then the others in turn.",
    hint_twins: "Two decks: every card is there twice, and of two identical cards the one played first wins the trick.",
    hint_partners: "Partners sit across the table and pool their points and tricks.",
  },
  de: {
    rules_contents: "Inhalt",
    hint_trump_dealer_last: "Die letzte Karte des Gebers, offen in seiner Hand, bestimmt Trumpf. Es gibt keinen Stock: Vom ersten Stich an Farbe bedienen und stechen, wenn du kannst.",
    hint_trump_first_led: "Zuerst wird gereizt: Biete eine Stufe (1 = 33 Augen, 2 = 66 ...) oder passe. Wer am höchsten bietet, spielt aus, und die Farbe dieser ersten Karte ist Trumpf.",
    hint_goal_three_hand: "Wer zuerst 66 Augen hat, gewinnt das Spiel; erreicht niemand 66, wird neu gegeben. Jeder spielt für sich, bis 10 Gewinnpunkte.",
    hint_goal_bidding: "Dein Partner sitzt dir gegenüber. Deine Seite bekommt die gebotene Stufe, wenn ihre Augen sie erreichen, und verliert sie sonst; Luna (5) muss jeden Stich machen.",
    hint_set_aside: "Zu dritt: je 7 Karten, und 2 Karten liegen ungesehen beiseite. Wer den Stich macht, zieht zuerst, dann die anderen der Reihe nach.",
    hint_twins: "Zwei Blätter: Jede Karte gibt es zweimal, und von zwei gleichen Karten gewinnt die zuerst gespielte den Stich.",
    hint_partners: "Partner sitzen sich gegenüber und legen Augen und Stiche zusammen.",
  },
  pl: {
    rules_contents: "Spis treści",
    hint_trump_dealer_last: "Ostatnia karta rozdającego, odkryta w jego ręce, wyznacza atut. Nie ma talii: od pierwszej lewy dokładaj do koloru i przebijaj, jeśli możesz.",
    hint_trump_first_led: "Najpierw licytacja: zalicytuj poziom (1 = 33 punkty, 2 = 66 ...) albo spasuj. Najwyżej licytujący wychodzi, a kolor tej pierwszej karty to atut.",
    hint_goal_three_hand: "Kto pierwszy zdobędzie 66 punktów, wygrywa rozdanie; gdy nikt nie zdobędzie 66, rozdanie się powtarza. Każdy gra na siebie, do 10 punktów meczowych.",
    hint_goal_bidding: "Twój partner siedzi naprzeciw. Twoja para dostaje zalicytowany poziom, jeśli jej punkty go osiągną, a inaczej go traci; Luna (5) musi wziąć każdą lewę.",
    hint_set_aside: "We troje: po 7 kart, a 2 karty leżą odłożone, niewidoczne. Zwycięzca lewy dobiera pierwszy, potem pozostali po kolei.",
    hint_twins: "Dwie talie: każda karta jest dwa razy, a z dwóch jednakowych lewę bierze ta zagrana wcześniej.",
    hint_partners: "Partnerzy siedzą naprzeciw siebie i łączą punkty i lewy.",
  },
  it: {
    rules_contents: "Indice",
    hint_trump_dealer_last: "L'ultima carta del mazziere, scoperta nella sua mano, indica la briscola. Non c'è tallone: dalla prima presa rispondi al seme e supera se puoi.",
    hint_trump_first_led: "Prima c'è la dichiarazione: dichiara un livello (1 = 33 punti, 2 = 66 ...) o passa. Chi dichiara più alto gioca per primo, e il seme di quella carta è la briscola.",
    hint_goal_three_hand: "Chi arriva per primo a 66 punti vince la mano; se nessuno arriva a 66, si ridistribuisce. Ognuno gioca per sé, fino a 10 punti partita.",
    hint_goal_bidding: "Il tuo compagno siede di fronte. La tua coppia segna il livello dichiarato se i suoi punti lo raggiungono, e lo perde se no; la Luna (5) deve fare tutte le prese.",
    hint_set_aside: "In tre: 7 carte a testa, e 2 carte restano da parte, coperte. Chi vince la presa pesca per primo, poi gli altri a turno.",
    hint_twins: "Due mazzi: ogni carta c'è due volte, e di due carte uguali vince la presa quella giocata prima.",
    hint_partners: "I compagni siedono di fronte e mettono insieme punti e prese.",
  },
  es: {
    rules_contents: "Índice",
    hint_trump_dealer_last: "La última carta del que reparte, boca arriba en su mano, marca el triunfo. No hay mazo: desde la primera baza sigue el palo y supera si puedes.",
    hint_trump_first_led: "Primero se subasta: apuesta un nivel (1 = 33 puntos, 2 = 66 ...) o pasa. Quien apuesta más alto sale, y el palo de esa primera carta es el triunfo.",
    hint_goal_three_hand: "Quien llega primero a 66 puntos gana la mano; si nadie llega a 66, se reparte de nuevo. Cada uno juega para sí, hasta 10 puntos de partida.",
    hint_goal_bidding: "Tu compañero se sienta enfrente. Tu pareja suma el nivel apostado si sus puntos lo alcanzan, y lo pierde si no; la Luna (5) debe ganar todas las bazas.",
    hint_set_aside: "De tres: 7 cartas cada uno, y 2 cartas quedan apartadas sin verse. Quien gana la baza roba primero, luego los demás por turno.",
    hint_twins: "Dos barajas: cada carta está dos veces, y de dos cartas iguales gana la baza la jugada primero.",
    hint_partners: "Los compañeros se sientan enfrente y juntan puntos y bazas.",
  },
});
