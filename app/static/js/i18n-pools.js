// The strings of quick pairing (the pools, /api/pools): the sentences of their error codes,
// in every language.

import { addStrings } from "./i18n.js";

addStrings({
  en: {
    err_unknown_pool: "There is no such game to be paired for.",
    err_in_another_pool: "You are already waiting for another game: leave it first.",
    err_not_in_pool: "You are not waiting for a game.",
    err_no_offer: "No computer players are offered to you yet: keep waiting a little.",
  },
  de: {
    err_unknown_pool: "Für dieses Spiel gibt es keine Paarung.",
    err_in_another_pool: "Du wartest schon auf ein anderes Spiel: verlasse es zuerst.",
    err_not_in_pool: "Du wartest auf kein Spiel.",
    err_no_offer: "Noch werden dir keine Computergegner angeboten: warte noch ein wenig.",
  },
  pl: {
    err_unknown_pool: "Dla tej gry nie ma kojarzenia graczy.",
    err_in_another_pool: "Czekasz już na inną grę: najpierw z niej zrezygnuj.",
    err_not_in_pool: "Nie czekasz na żadną grę.",
    err_no_offer: "Gra z komputerem nie jest ci jeszcze proponowana: poczekaj chwilę.",
  },
  it: {
    err_unknown_pool: "Per questo gioco non c'è abbinamento.",
    err_in_another_pool: "Stai già aspettando un'altra partita: prima lasciala.",
    err_not_in_pool: "Non stai aspettando nessuna partita.",
    err_no_offer: "Non ti vengono ancora offerti avversari al computer: aspetta ancora un po'.",
  },
  es: {
    err_unknown_pool: "No hay emparejamiento para ese juego.",
    err_in_another_pool: "Ya esperas otra partida: déjala primero.",
    err_not_in_pool: "No estás esperando ninguna partida.",
    err_no_offer: "Todavía no se te ofrecen rivales de la computadora: espera un poco más.",
  },
});
