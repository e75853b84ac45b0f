// The client's entry: header (navigation, language, deck colours) and a small router.
//   /              lobby
//   /t/{id}        a table (players and spectators; ?invite=... for private tables)
//   /history       your finished matches
//   /history/{id}  the replay of one
//   /history/{id}/verify  its deals re-dealt from the published seeds and checked
//   /rules         how to play, with every option explained (#option-<name>)
//   /account, /players/{id}, /leaderboard: see account.js
//   /tournaments, /tournaments/{id}: the events and one event live (tournaments.js)

import { accountPage, leaderboardPage, profilePage } from "./account.js";
import { me } from "./api.js";
import { startChallenges } from "./challenges.js";
import { h, mount } from "./dom.js";
import { historyPage, replayPage } from "./history.js";
import { LANGUAGES, lang, setLang, t } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { startNotices } from "./notices.js";
import { onlineCount } from "./online.js";
import { startPools } from "./pools.js";
import { rulesPage } from "./rules.js";
import { setSound, soundOn } from "./sounds.js";
import { tablePage } from "./table.js";
import { verifyPage } from "./verify.js";
import { tournamentPage, tournamentsPage } from "./tournaments.js";

const app = document.getElementById("app");
let page = null;

const FOUR_COLOUR = "talon.fourColour";

function route() {
  if (page) page.leave();
  const path = location.pathname;
  let match;
  if ((match = path.match(/^\/t\/([\w-]+)\/?$/))) page = tablePage(app, match[1], navigate);
  else if ((match = path.match(/^\/history\/(\d+)\/?$/))) page = replayPage(app, match[1]);
  else if ((match = path.match(/^\/history\/(\d+)\/verify\/?$/))) page = verifyPage(app, match[1]);
  else if (path.startsWith("/history")) page = historyPage(app);
  else if (path.startsWith("/rules")) page = rulesPage(app);
  else if ((match = path.match(/^\/players\/([\w.-]+)\/?$/))) page = profilePage(app, match[1]);
  else if (path.startsWith("/leaderboard")) page = leaderboardPage(app);
  else if ((match = path.match(/^\/tournaments\/([\w-]+)\/?$/))) page = tournamentPage(app, match[1], navigate);
  else if (path.startsWith("/tournaments")) page = tournamentsPage(app, navigate);
  else if (path.startsWith("/account")) page = accountPage(app, navigate);
  else page = lobbyPage(app, navigate);
  renderHeader();
}

export function navigate(path) {
  history.pushState(null, "", path);
  route();
  app.focus({ preventScroll: true });
  const anchor = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (anchor) anchor.scrollIntoView();
  else window.scrollTo(0, 0);
}

function renderHeader() {
  const here = location.pathname;
  mount(
    document.getElementById("nav"),
    h("a", { href: "/", "data-link": true, "aria-current": here === "/" ? "page" : null }, t("nav_lobby")),
    h("a", { href: "/history", "data-link": true, "aria-current": here.startsWith("/history") ? "page" : null }, t("nav_history")),
    h("a", { href: "/rules", "data-link": true, "aria-current": here.startsWith("/rules") ? "page" : null }, t("nav_rules")),
    h("a", { href: "/leaderboard", "data-link": true, "aria-current": here.startsWith("/leaderboard") ? "page" : null }, t("nav_leaderboard")),
    h("a", { href: "/account", "data-link": true, "aria-current": here.startsWith("/account") ? "page" : null, "data-testid": "nav-account" }, me()?.handle || t("nav_account")),
  );
  const four = localStorage.getItem(FOUR_COLOUR) === "1";
  document.body.classList.toggle("four-colour", four);
  mount(
    document.getElementById("prefs"),
    h("span", { class: "online-count", "data-online-count": "", "data-testid": "header-online", hidden: true }),
    h(
      "label",
      { class: "four" },
      h("input", {
        type: "checkbox",
        id: "four-colour",
        checked: four,
        onchange: (e) => {
          localStorage.setItem(FOUR_COLOUR, e.target.checked ? "1" : "0");
          renderHeader();
          page?.render();
        },
      }),
      h("span", {}, t("four_colour")),
    ),
    h(
      "label",
      { class: "four" },
      h("input", { type: "checkbox", id: "sound", checked: soundOn(), onchange: (e) => setSound(e.target.checked) }),
      h("span", {}, t("sound")),
    ),
    h(
      "select",
      {
        id: "language",
        "aria-label": t("language"),
        onchange: (e) => {
          setLang(e.target.value);
          renderHeader();
          page?.render();
        },
      },
      Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === lang() }, name)),
    ),
  );
  onlineCount();
}

// Signed in or out, renamed: the header's account link follows at once.
window.addEventListener("talon:identity", renderHeader);

document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);
route();
startChallenges(navigate);
startPools(navigate);
startNotices();
