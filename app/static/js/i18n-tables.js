// Strings of tables of three and four and of the first visit (the deal log before trump is
// named, the buttons that seat a computer, the passkeys' address), in every language of i18n.js.

import { addStrings } from "./i18n.js";

addStrings({
  en: {
    ann_deal_no_trump: "Deal {n}: {name} deals, trump not named yet",
    match_winner_resigned: "{loser} resigned: {name} wins the match.",
    analysis_close: "Close to the best",
    replay_title_many: "Replay: {names}",
    leaderboard_empty_one: "Nobody has played a rated match in this game yet.",
    leaderboard_rule_one: "Players with at least one rated match.",
    passkeys_numeric: "Passkeys work only at a site's name: browsers refuse them at a numeric address such as {host}.",
    passkeys_open_named: "Open this page at {url} to use them.",
    add_computer: "Or give an empty seat to a computer player ({n} empty):",
  },
  de: {
    ann_deal_no_trump: "Spiel {n}: {name} gibt, Trumpf noch nicht bestimmt",
    match_winner_resigned: "{loser} hat aufgegeben: {name} gewinnt die Partie.",
    analysis_close: "Fast der beste Zug",
    replay_title_many: "Wiederholung: {names}",
    leaderboard_empty_one: "Noch niemand hat eine gewertete Partie in diesem Spiel gespielt.",
    leaderboard_rule_one: "Spieler mit mindestens einer gewerteten Partie.",
    passkeys_numeric: "Passkeys gehen nur unter dem Namen einer Seite: An einer Zahlenadresse wie {host} lehnen Browser sie ab.",
    passkeys_open_named: "Öffne diese Seite unter {url}, um sie zu nutzen.",
    add_computer: "Oder gib einen freien Platz einem Computerspieler ({n} frei):",
  },
  pl: {
    ann_deal_no_trump: "Rozdanie {n}: rozdaje {name}, atut jeszcze nieznany",
    match_winner_resigned: "{loser} poddaje partię: wygrywa {name}.",
    analysis_close: "Prawie najlepszy ruch",
    replay_title_many: "Powtórka: {names}",
    leaderboard_empty_one: "Nikt jeszcze nie rozegrał partii rankingowej w tej grze.",
    leaderboard_rule_one: "Gracze z co najmniej jedną partią rankingową.",
    passkeys_numeric: "Klucze dostępu działają tylko pod nazwą strony: przeglądarki odrzucają je pod adresem liczbowym, takim jak {host}.",
    passkeys_open_named: "Otwórz tę stronę pod {url}, aby ich użyć.",
    add_computer: "Albo oddaj wolne miejsce komputerowi (wolne: {n}):",
  },
  it: {
    ann_deal_no_trump: "Mano {n}: distribuisce {name}, briscola non ancora scelta",
    match_winner_resigned: "{loser} ha abbandonato: {name} vince la partita.",
    analysis_close: "Quasi la mossa migliore",
    replay_title_many: "Replay: {names}",
    leaderboard_empty_one: "Nessuno ha ancora giocato una partita valida per la classifica in questo gioco.",
    leaderboard_rule_one: "Giocatori con almeno una partita valida.",
    passkeys_numeric: "Le passkey funzionano solo con il nome di un sito: i browser le rifiutano a un indirizzo numerico come {host}.",
    passkeys_open_named: "Apri questa pagina a {url} per usarle.",
    add_computer: "Oppure dai un posto libero a un giocatore computer ({n} liberi):",
  },
  es: {
    ann_deal_no_trump: "Mano {n}: reparte {name}, triunfo aún sin elegir",
    match_winner_resigned: "{loser} abandonó: {name} gana la partida.",
    analysis_close: "Casi la mejor jugada",
    replay_title_many: "Repetición: {names}",
    leaderboard_empty_one: "Nadie ha jugado todavía una partida puntuable en este juego.",
    leaderboard_rule_one: "Jugadores con al menos una partida puntuable.",
    passkeys_numeric: "Las llaves de acceso solo funcionan con el nombre de un sitio: los navegadores las rechazan en una dirección numérica como {host}.",
    passkeys_open_named: "Abre esta página en {url} para usarlas.",
    add_computer: "O da un asiento libre a un jugador de la computadora ({n} libres):",
  },
});
