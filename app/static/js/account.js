// Accounts, profiles and the leaderboard:
//   /account        create an account from this guest, sign in (password or passkey), sign
//                   out, add and remove passkeys
//   /players/{id}   a player's profile: ratings with trend, statistics, recent matches
//   /leaderboard    the best-rated players of a game, a page at a time

import { call, me, remember } from "./api.js";
import { challengeButton } from "./challenges.js";
import { h, mount, toast } from "./dom.js";
import { failure } from "./errors.js";
import "./i18n-accounts.js";
import "./i18n-tables.js";
import { lang, seatName, t } from "./i18n.js";
import { addPasskey, atNumericAddress, namedAddress, passkeysOffered, signInWithPasskey } from "./passkeys.js";

const FAMILIES = ["sixty-six", "schnapsen", "german", "three-hand", "four-hand"];

function field(formId, name, attrs, hint) {
  return h(
    "label",
    { class: "field" },
    h("span", {}, t(name)),
    h("input", { name, id: `${formId}-${name}`, required: true, ...attrs }),
    hint ? h("small", { class: "muted hint" }, hint) : null,
  );
}

function values(form) {
  return Object.fromEntries(new FormData(form).entries());
}

// A refusal from the server in the player's language; the browser's own passkey dialog
// closed without a passkey (cancelled, timed out, none here) says so.
function complain(error) {
  toast(error instanceof DOMException ? t("passkey_cancelled") : failure(error));
}

// A form's refusal also stays under it (a password too easy to guess, a handle taken), until
// the next attempt; `error` null clears it.
function refusedIn(form, error) {
  let line = form.querySelector(".form-refusal");
  if (!error) {
    line?.remove();
    return;
  }
  if (!line) {
    line = h("p", { class: "form-refusal", role: "alert", "data-testid": "form-refusal" });
    form.querySelector("button[type=submit]").before(line);
  }
  line.textContent = failure(error);
  line.dataset.code = error?.code ?? "";
}

export function accountPage(root, navigate) {
  // Send a form's handle and password with `act`, keep the identity it answers, and go to the
  // player's profile; a refusal is shown with the server's sentence.
  function submitWith(act, greeting) {
    return async (event) => {
      event.preventDefault();
      const form = event.target;
      const { handle, password } = values(form);
      refusedIn(form, null);
      try {
        const identity = await act(handle, password);
        remember(identity);
        toast(t(greeting, { handle: identity.handle }));
        navigate(`/players/${identity.id}`);
      } catch (error) {
        complain(error);
        refusedIn(form, error);
      }
    };
  }

  const signUp = submitWith(async (handle, password) => {
    if (!me()) remember(await call("POST", "/api/players", { name: handle }));
    return { ...me(), ...(await call("POST", "/api/accounts", { handle, password })) };
  }, "account_created");

  const signIn = submitWith((handle, password) => call("POST", "/api/accounts/sign-in", { handle, password }), "signed_in");

  async function passkeySignIn() {
    const handle = document.getElementById("signin-handle")?.value.trim();
    try {
      const identity = await signInWithPasskey(handle);
      remember(identity);
      toast(t("signed_in", { handle: identity.handle }));
      navigate(`/players/${identity.id}`);
    } catch (error) {
      complain(error);
    }
  }

  let passkeys = null; // the signed-in account's passkeys, once loaded

  async function loadPasskeys() {
    try {
      passkeys = await call("GET", "/api/accounts/passkeys");
    } catch (error) {
      complain(error);
    }
    render();
  }

  async function newPasskey() {
    try {
      await addPasskey();
      toast(t("passkey_added"));
    } catch (error) {
      complain(error);
    }
    loadPasskeys();
  }

  async function removePasskey(id) {
    try {
      await call("DELETE", `/api/accounts/passkeys/${encodeURIComponent(id)}`);
      toast(t("passkey_removed"));
    } catch (error) {
      complain(error);
    }
    loadPasskeys();
  }

  function when(stamp) {
    return new Date(stamp).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
  }

  // Why passkeys are not offered here: at a numeric address, where they work instead.
  function passkeysWhy() {
    if (!atNumericAddress()) return h("p", { class: "muted" }, t("passkeys_unavailable"));
    const there = namedAddress();
    return h(
      "p",
      { class: "muted", "data-testid": "passkeys-numeric" },
      t("passkeys_numeric", { host: location.hostname }),
      there ? [" ", h("a", { href: there }, t("passkeys_open_named", { url: there }))] : null,
    );
  }

  function passkeysPanel() {
    if (!passkeysOffered()) {
      return h("section", { class: "panel passkeys" }, h("h2", {}, t("passkeys_title")), passkeysWhy());
    }
    const list = passkeys === null
      ? h("p", { class: "muted" }, t("loading"))
      : passkeys.length
        ? h(
            "ul",
            { class: "passkey-list" },
            passkeys.map((p) =>
              h(
                "li",
                { dataset: { passkey: p.id } },
                h("span", {}, t("passkey_created", { when: when(p.created_at) })),
                h("small", { class: "muted" }, p.last_used_at ? t("passkey_used", { when: when(p.last_used_at) }) : t("passkey_unused")),
                h("button", { class: "button ghost small", type: "button", "data-action": "passkey-remove", onclick: () => removePasskey(p.id) }, t("passkey_remove")),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("passkeys_none"));
    return h(
      "section",
      { class: "panel passkeys", "aria-labelledby": "passkeys-title" },
      h("h2", { id: "passkeys-title" }, t("passkeys_title")),
      h("p", { class: "muted" }, t("passkeys_intro")),
      list,
      h("button", { class: "button primary", type: "button", "data-action": "passkey-add", onclick: newPasskey }, t("passkey_add")),
    );
  }

  async function signOut() {
    try {
      await call("POST", "/api/accounts/sign-out");
    } catch {
      // A token already revoked signs out all the same.
    }
    remember(null);
    toast(t("signed_out"));
    render();
  }

  function signUpForm() {
    return h(
      "form",
      { class: "panel", id: "signup", onsubmit: signUp, "aria-labelledby": "signup-title" },
      h("h2", { id: "signup-title" }, t("signup_title")),
      h("p", { class: "muted" }, t("account_intro")),
      field("signup", "handle", { maxlength: 20, autocomplete: "username" }, t("handle_hint")),
      field("signup", "password", { type: "password", minlength: 8, autocomplete: "new-password" }, t("password_hint")),
      h("button", { class: "button primary wide", type: "submit", "data-action": "signup" }, t("signup")),
    );
  }

  function signInForm() {
    return h(
      "form",
      { class: "panel", id: "signin", onsubmit: signIn, "aria-labelledby": "signin-title" },
      h("h2", { id: "signin-title" }, t("signin_title")),
      h("p", { class: "muted" }, t("signin_intro")),
      field("signin", "handle", { maxlength: 20, autocomplete: "username" }),
      field("signin", "password", { type: "password", autocomplete: "current-password" }),
      h("button", { class: "button wide", type: "submit", "data-action": "signin" }, t("signin")),
      passkeysOffered()
        ? [
            h("p", { class: "muted or" }, t("passkey_or")),
            h("button", { class: "button ghost wide", type: "button", "data-action": "passkey-signin", onclick: passkeySignIn }, t("passkey_signin")),
          ]
        : atNumericAddress()
          ? passkeysWhy()
          : null,
    );
  }

  function render() {
    const mine = me();
    const who = mine?.handle
      ? h(
          "div",
          { class: "who" },
          h("span", { "data-testid": "signed-in" }, t("signed_in_as", { handle: mine.handle })),
          h("a", { class: "button small", href: `/players/${mine.id}`, "data-link": true }, t("your_profile")),
          h("button", { class: "button ghost small", type: "button", "data-action": "signout", onclick: signOut }, t("signout")),
        )
      : mine
        ? h("div", { class: "who" }, h("span", {}, t("guest_as", { name: mine.name })))
        : null;
    mount(
      root,
      h(
        "section",
        { class: "account-page" },
        h("h1", {}, t("account_title")),
        who,
        mine?.handle ? passkeysPanel() : null,
        h("div", { class: "account-forms" }, mine?.handle ? null : signUpForm(), signInForm()),
      ),
    );
  }

  render();
  if (me()?.handle && passkeysOffered()) loadPasskeys();
  return { render, leave() {} };
}

function ratingText(r) {
  return `${r.rating} ± ${r.deviation}${r.provisional ? ` (${t("provisional")})` : ""}`;
}

function sparkline(trend) {
  if (trend.length < 2) return null;
  const ratings = trend.map((p) => p.rating);
  const low = Math.min(...ratings);
  const span = Math.max(...ratings) - low || 1;
  const step = 100 / (ratings.length - 1);
  const points = ratings.map((r, i) => `${(i * step).toFixed(1)},${(28 - ((r - low) / span) * 26).toFixed(1)}`);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 100 30");
  svg.setAttribute("class", "sparkline");
  svg.setAttribute("aria-hidden", "true");
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", points.join(" "));
  svg.append(line);
  return svg;
}

export function profilePage(root, playerId) {
  let profile = null;
  let alive = true;

  async function load() {
    try {
      profile = await call("GET", `/api/players/${encodeURIComponent(playerId)}`);
    } catch (error) {
      toast(t("error", { message: error.message }));
    }
    if (alive) render();
  }

  function ratingsCard() {
    if (profile.computer) {
      return h("p", { class: "computer-rating" }, t("computer_rating", { rating: profile.computer.rating }));
    }
    if (!profile.ratings.length) return h("p", { class: "muted" }, t("no_ratings"));
    return h(
      "ul",
      { class: "ratings" },
      profile.ratings.map((r) =>
        h(
          "li",
          { dataset: { family: r.family } },
          h("span", { class: "family" }, t(`family_${r.family}`)),
          h("strong", { class: "rating-value" }, ratingText(r)),
          h("small", { class: "muted" }, `${r.matches} ${t("matches_played").toLowerCase()}`),
          r.last_change !== null ? h("small", { class: "muted" }, t("trend", { change: (r.last_change > 0 ? "+" : "") + r.last_change })) : null,
          sparkline(r.trend),
        ),
      ),
    );
  }

  function statsCard() {
    const s = profile.statistics;
    const rows = [
      ["stat_matches", s.matches],
      ["stat_won", s.won],
      ["stat_lost", s.lost],
      ["stat_abandoned", s.abandoned],
      ["stat_deals_won", `${s.deals_won} / ${s.deals}`],
      ["stat_points_per_deal", s.game_points_per_deal ?? "–"],
      ["stat_schwarz", s.schwarz_wins],
      ["stat_closes", `${s.closes_made} / ${s.closes_failed}`],
      ["stat_marriages", s.marriages],
      ["stat_favourite", s.favourite_game ? t(`variant_${s.favourite_game}`) : "–"],
    ];
    return h("dl", { class: "stats" }, rows.map(([key, value]) => [h("dt", {}, t(key)), h("dd", {}, String(value))]));
  }

  function recentCard() {
    return h(
      "ul",
      { class: "matches" },
      profile.recent.map((m) => {
        const seat = m.players.find((p) => p.player_id === profile.id)?.seat;
        const others = m.players.filter((p) => p.seat !== seat).map((p) => seatName(p, m.players) || p.name);
        const when = new Date(m.started_at).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
        const over = m.status === "finished" || m.status === "aborted";
        const result = m.status === "aborted" ? t("aborted") : !over ? "…" : t(m.winner === seat ? "won" : "lost");
        return h(
          "li",
          { class: "match-row" },
          h("span", { class: "result" }, result),
          h("div", { class: "match-main" }, h("strong", {}, others.join(", ")), h("small", {}, `${t(`variant_${m.variant}`)} · ${t(m.rated ? "rated_true" : "rated_false")} · ${when}`)),
          over ? h("a", { class: "button small", href: `/history/${m.id}`, "data-link": true }, t("replay")) : null,
        );
      }),
    );
  }

  function render() {
    if (!profile) {
      mount(root, h("section", { class: "panel" }, h("p", { class: "muted" }, t("loading"))));
      return;
    }
    const title = profile.computer ? seatName({ player_id: profile.id, name: profile.name }) : profile.name;
    const sub = profile.deleted ? t("deleted_profile") : profile.handle ? `@${profile.handle}` : profile.computer ? null : t("guest_profile");
    mount(
      root,
      h(
        "section",
        { class: "profile-page" },
        h("h1", {}, title, sub ? h("small", { class: "muted handle" }, ` ${sub}`) : null),
        profile.computer || profile.deleted ? null : challengeButton(profile),
        h("div", { class: "panel" }, h("h2", {}, t("ratings_title")), ratingsCard()),
        profile.computer ? null : h("div", { class: "panel" }, h("h2", {}, t("stats_title")), statsCard()),
        profile.recent.length ? h("div", { class: "panel" }, h("h2", {}, t("recent_title")), recentCard()) : null,
        profile.computer ? null : h("a", { class: "button ghost small", href: `/api/players/${encodeURIComponent(profile.id)}/matches.ndjson`, download: "" }, t("export_matches")),
      ),
    );
  }

  render();
  load();
  return {
    render,
    leave() {
      alive = false;
    },
  };
}

export function leaderboardPage(root) {
  let game = "sixty-six";
  let rows = [];
  let next = null;
  let minimum = null;
  let alive = true;

  async function load(more = false) {
    const after = more && next ? `&after=${encodeURIComponent(next)}` : "";
    try {
      const page = await call("GET", `/api/leaderboard?game=${game}&limit=50${after}`);
      if (!alive) return;
      rows = more ? [...rows, ...page.players] : page.players;
      next = page.next;
      minimum = page.min_matches;
    } catch (error) {
      toast(t("error", { message: error.message }));
    }
    render();
  }

  function table() {
    if (!rows.length) return h("p", { class: "muted" }, (minimum === 1 ? t("leaderboard_empty_one") : t("leaderboard_empty", { n: minimum ?? "…" })));
    return h(
      "table",
      { class: "leaderboard" },
      h("thead", {}, h("tr", {}, ["rank", "player", "rating", "matches_played"].map((k) => h("th", {}, t(k))))),
      h(
        "tbody",
        {},
        rows.map((p) =>
          h(
            "tr",
            { dataset: { player: p.id } },
            h("td", {}, String(p.rank)),
            h("td", {}, h("a", { href: `/players/${p.id}`, "data-link": true }, p.handle || p.name)),
            h("td", {}, ratingText(p)),
            h("td", {}, String(p.matches)),
          ),
        ),
      ),
    );
  }

  function render() {
    mount(
      root,
      h(
        "section",
        { class: "panel leaderboard-page" },
        h("h1", {}, t("leaderboard_title")),
        h(
          "div",
          { class: "tabs", role: "tablist" },
          FAMILIES.map((family) =>
            h("button", { class: `button small ${family === game ? "primary" : "ghost"}`, type: "button", role: "tab", "aria-selected": family === game ? "true" : "false", onclick: () => { game = family; next = null; load(); } }, t(`family_${family}`)),
          ),
        ),
        minimum !== null ? h("p", { class: "muted" }, (minimum === 1 ? t("leaderboard_rule_one") : t("leaderboard_rule", { n: minimum }))) : null,
        table(),
        next ? h("button", { class: "button small", type: "button", onclick: () => load(true) }, t("more")) : null,
      ),
    );
  }

  render();
  load();
  return {
    render,
    leave() {
      alive = false;
    },
  };
}
