// The table page: waiting room, live play, spectating, deal summaries and match end.
// Everything it shows comes from the server's welcome, update and table frames; the cards and
// buttons it offers are exactly the `legal` actions the server sent to this seat.

import { ApiError, call, identify, me } from "./api.js";
import { board, partnerOf, scoreboard, seatPosition, sideNames } from "./board.js";
import { cardElement, suitIcon } from "./cards.js";
import { challengeButton } from "./challenges.js";
import { chatPanel } from "./chat.js";
import { clockStrip, received, secondsOf, takeoverNotice, tick } from "./clock.js";
import { banner, h, mount, say, toast } from "./dom.js";
import { errorText, failure } from "./errors.js";
import { cardName, cardShort, seatNames, t } from "./i18n.js";
import "./i18n-rules.js";
import "./i18n-tables.js";
import { SeatPresence } from "./presence.js";
import { fold } from "./reducer.js";
import { rematchFrom, rematchParts, secondsLeft } from "./rematch.js";
import { sound } from "./sounds.js";
import { dealSummary, endedDealTricks } from "./summary.js";
import { redrawsAfterPresses } from "./presses.js";
import { TableSocket } from "./socket.js";
import { contribute, rememberCommitment } from "./verify.js";

export function tablePage(root, tableId, navigate) {
  const params = new URLSearchParams(location.search);
  const state = {
    table: null,
    view: null,
    version: null,
    seat: null,
    online: true,
    showLast: false,
    summary: null, // {result, game_points, tricks, match}
    confirmResign: false,
    confirmLeave: false, // asked whether to resign and leave during play
    leaving: false, // resigned to leave: the lobby once the match is over
    confirm: null, // "close" or "claim" while the player is asked to confirm it
    callout: null, // {seat, text}: another player's declaration, shown by their seat
    fresh: null, // what the last update brought, animated once: {played, dealt, collected}
    peekUntil: 0, // a finished trick stays in view in the corner until then (ms)
    marriageFor: null,
    log: { deal: null, entries: [] }, // the current deal's story, newest first
    focusCard: null,
    missing: false,
    clock: null, // the last `clock` frame, with when it arrived
    rematch: null, // the standing rematch offer, or how the last one ended (rematch.js)
    confirmClaim: null, // the gone seat the player is asked to confirm a claim against
    abortable: false, // the server's word: the match may still be aborted (not every seat has acted)
    aborted: null, // what ended the last match unplayed, said in the waiting room
  };
  const presence = new SeatPresence();
  let awayTicker = null;
  let socket = null;
  let alive = true;
  const chat = chatPanel((message) => (socket ? socket.send(message) : false));
  let freshTimer = null;
  let peekTimer = null;
  const clockTimer = tick(root, () => state.clock);
  const presses = redrawsAfterPresses(root, () => render());
  // Socket frames redraw the page once per animation frame: a burst of updates (a page that
  // fell behind, computers moving one after another) is folded in whole and drawn once. Each
  // draw replaces the page and lays it out again (tens of ms on a phone), so drawing every
  // frame of a burst left a busy page further behind with each. A hidden page has no animation
  // frames: it updates its tab's title ("Your move") now and draws when shown again.
  let frameAsked = 0;
  function redrawSoon() {
    if (document.hidden) tabTitle();
    if (!frameAsked) frameAsked = requestAnimationFrame(render);
  }
  let rematchTimer = null; // counts a standing offer's seconds down
  const challengeBoxes = new Map(); // player id -> its challenge button, at the match's end
  const PEEK_MS = 2500; // long enough to read a trick the computer ended by leading at once

  const names = () => (state.table ? seatNames(state.table.seats) : []);
  // Game points, deal and match results count sides: a seat, or two partners together.
  const sides = () => (state.view ? sideNames(state.view, names()) : names());
  const seated = () => state.seat !== null && state.seat !== undefined;
  // The tournament this table was opened for: its match is never aborted, handed to a
  // computer or replayed; the event pairs the next game.
  const eventOf = () => state.table?.tournament || null;
  const eventLink = (primary) =>
    h("a", { class: `button ${primary ? "primary" : "ghost"}`, href: `/tournaments/${eventOf()}`, "data-link": true, "data-action": "back-to-event" }, t("tournament_back"));

  function connect() {
    if (socket) {
      // Greeted again (with the token of a player who just took a seat): until the new
      // socket's welcome the page offers no move, as nothing could be sent meanwhile.
      socket.stop();
      state.online = false;
      if (state.view) render();
    }
    socket = new TableSocket(tableId, () => (me() ? me().token : null), {
      welcome(frame) {
        if (frame.table) state.table = { ...state.table, ...frame.table };
        state.seat = frame.seat;
        state.version = frame.version;
        // A new match has no offer; a standing one comes again right after this welcome.
        if (frame.match_id !== state.matchId || state.rematch?.outcome === "pending") showRematch(null);
        state.abortable = Boolean(frame.abortable);
        if (frame.view === null && !frame.resumed) {
          state.view = null; // no match under way: the table waits (after an abort, too)
          state.summary = null;
        }
        if (frame.view) {
          state.aborted = null;
          if (state.view && frame.match_id !== state.matchId) state.summary = null;
          state.view = frame.view;
          rememberCommitment(String(frame.match_id), frame.view.deal_no, frame.view.commitment);
          state.log = { deal: frame.view.deal_no, entries: [] };
          logEvents(frame.deal_events || []);
          // After a reload at the end of a match: the last deal's summary and the match's end.
          if (frame.view.match_over && !state.summary) {
            const last = frame.view.deal_results[frame.view.deal_results.length - 1];
            const ended = last && last.deal_no === frame.view.deal_no;
            state.summary = { match: true, result: last, tricks: ended ? endedDealTricks(frame.view, []) : [] };
          }
        }
        state.matchId = frame.match_id;
        render();
      },
      update(frame) {
        if (!state.view) return;
        const before = state.view;
        state.view = fold(state.view, frame);
        state.version = frame.version;
        state.abortable = Boolean(frame.abortable);
        if (frame.clock) state.clock = received(frame.clock); // a timed table's clock, as of this update
        state.marriageFor = null;
        motion(frame.events, before);
        if (state.confirm && !frame.legal.some((a) => a.type === state.confirm)) state.confirm = null;
        announce(frame.events, before);
        redrawSoon();
      },
      table(info) {
        const wasSeated = seated();
        state.table = { ...state.table, ...info };
        const mine = me();
        const seat = mine ? info.seats.find((s) => s.player_id === mine.id) : null;
        state.seat = seat ? seat.seat : null;
        if (!wasSeated && seated()) refreshTable();
        render();
      },
      ack() {},
      clock(frame) {
        state.clock = received(frame);
        redrawSoon();
      },
      rematch(frame) {
        rematchFrames += 1;
        showRematch(frame);
        render();
      },
      aborted(frame) {
        // The match ended unplayed: nobody won, no rating moved; the table waits again.
        const name = names()[frame.seat] || "?";
        state.aborted = t(frame.reason === "clock" ? "match_aborted_clock" : "match_aborted", { name });
        state.view = null;
        state.summary = null;
        state.abortable = false;
        state.clock = null;
        state.confirmLeave = false;
        say(state.aborted);
        render();
      },
      presence(frame) {
        const before = { ...presence.seats };
        presence.take(frame);
        sayPresence(before);
        redrawSoon();
      },
      greeted: () => chat.joined(),
      chat: (frame) => chat.receive(frame),
      error(frame) {
        if (typeof frame.id === "string" && frame.id.startsWith("chat-")) {
          chat.error(frame); // said in the chat panel
          return;
        }
        if (frame.code === "stale_version") return; // the missing update is on its way
        if (frame.code === "invite_required" || frame.code === "no_spectators") {
          state.refusal = frame.code; // the socket closes with 4005 next: the page says why
          return;
        }
        toast(errorText(frame.code, frame.message));
      },
      status(status) {
        state.online = status === "up";
        if (state.online) banner(null);
        else banner(t("reconnecting"));
        render();
      },
      fatal(code) {
        if (code === 4005 && !seated()) state.noWatching = true;
        else state.missing = true;
        render();
      },
    });
    socket.start();
  }

  // The table as the REST API shows it (a seated player also gets its invite link). Only the
  // call's failure is caught here: an error while drawing is a bug, and is left to surface.
  async function refreshTable() {
    let table;
    try {
      table = await call("GET", `/api/tables/${tableId}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        state.missing = true;
        render();
      } else {
        toast(t("offline"));
      }
      return;
    }
    state.table = table;
    render();
  }

  // The side log tells the current deal's story, newest first; a new deal starts it afresh.
  // After a reload the welcome's `deal_events` (what this viewer received) tell it again.
  function describe(e) {
    const who = (seat) => names()[seat] || "?";
    if (e.type === "marriage_declared") {
      let text = t("ann_marriage", { name: who(e.seat), suit: t(`suit_${e.suit}`), points: e.points });
      if (e.credited === false) text += ` ${t("ann_pending", { name: who(e.seat), points: e.points })}`;
      return text;
    }
    if (e.type === "exchange") return t("ann_exchange", { name: who(e.seat), gave: cardShort(e.gave), took: cardShort(e.took) });
    if (e.type === "closed") return t("ann_closed", { name: who(e.seat) });
    if (e.type === "claim") return t(e.correct ? "ann_claim_ok" : "ann_claim_bad", { name: who(e.seat), score: e.score });
    if (e.type === "resigned") return t("ann_resigned", { name: who(e.seat) });
    if (e.type === "bid") return t(e.level === 5 ? "ann_bid_luna" : "ann_bid", { name: who(e.seat), level: e.level });
    if (e.type === "passed") return t("ann_passed", { name: who(e.seat) });
    if (e.type === "bidding_over") return t("ann_bidding_won", { name: who(e.seat), level: e.level });
    if (e.type === "trump_named") return t("ann_trump_named", { name: who(e.seat), suit: t(`suit_${e.trump}`) });
    return null;
  }

  function logEvents(events) {
    for (const e of events) {
      if (e.type === "deal_started") {
        state.log = { deal: e.deal_no, entries: [] };
        rememberCommitment(String(state.matchId), e.deal_no, e.commitment);
      }
      const text = describe(e);
      if (text) state.log.entries.unshift({ text, key: Math.random() });
    }
  }

  // Everything that happened, in words, for screen readers: the cards played and by whom too.
  function spoken(e) {
    const who = (seat) => names()[seat] || "?";
    if (e.type === "card_played") return t("sr_played", { name: who(e.seat), card: cardName(e.card) });
    if (e.type === "trick_won") return t("sr_trick_won", { name: who(e.seat), points: e.points });
    if (e.type === "deal_started") return dealTitle(e.deal_no, who(e.dealer), e.trump);
    if (e.type === "deal_over") return t("wins_deal", { name: sides()[e.result.winner] || "?" });
    return describe(e);
  }

  // Short animations for what just happened (CSS keeps them still for "reduce motion"), the
  // optional sounds, and the finished trick kept in view when the next card follows at once.
  function motion(events, before) {
    const played = new Set(events.filter((e) => e.type === "card_played").map((e) => e.card));
    const won = events.find((e) => e.type === "trick_won");
    state.fresh = {
      played,
      dealt: events.some((e) => e.type === "hand_dealt" && e.seat === state.seat),
      collected: won ? seatPosition(won.seat, seated() ? state.seat : 0, state.view.seats) : null,
    };
    clearTimeout(freshTimer);
    freshTimer = setTimeout(() => (state.fresh = null), 900);
    if (won) {
      state.peekUntil = Date.now() + PEEK_MS;
      clearTimeout(peekTimer);
      peekTimer = setTimeout(render, PEEK_MS + 50);
    }
    if (events.some((e) => e.type === "card_played" && e.seat !== state.seat)) sound("card");
    const mine = seated() && state.view.to_move === state.seat;
    if (mine && before.to_move !== state.seat) sound("turn");
  }

  // What another player just declared, exchanged or closed is also shown on the table, by their
  // seat, until the trick that follows it is over: below the table it is easy to miss on a phone.
  function callOut(events, before) {
    const restart = events.map((e) => e.type).lastIndexOf("deal_started");
    if (restart >= 0) state.callout = null;
    const leads = before.trick.length === 0 && events.some((e) => e.type === "card_played");
    if (leads && state.callout) {
      if (state.callout.led) state.callout = null;
      else state.callout.led = true;
    }
    for (const e of events.slice(restart + 1)) {
      const text = ["marriage_declared", "exchange", "closed"].includes(e.type) ? describe(e) : null;
      if (text && e.seat !== state.seat) state.callout = { seat: e.seat, text, led: leads };
    }
  }

  function announce(events, before) {
    if (state.leaving && events.some((e) => e.type === "match_over")) {
      navigate("/");
      return;
    }
    logEvents(events);
    callOut(events, before);
    const words = events.map(spoken).filter(Boolean);
    if (words.length) say(words.join(". "));
    for (const e of events) {
      if (e.type === "deal_over") {
        const tricks = endedDealTricks(before, events);
        const over = events.some((x) => x.type === "match_over");
        state.summary = { result: e.result, game_points: e.game_points, tricks, match: over };
      }
    }
  }

  // -- presence: who is connected, and a claim against a player who did not come back ------

  const sideOf = (seat) => (state.view && state.view.sides ? state.view.sides[seat] : seat);
  const opponent = (seat) => seated() && sideOf(seat) !== sideOf(state.seat);
  const othersIn = (kind) => presence.seatsIn(kind).filter((seat) => seat !== state.seat);

  // How long the table waits for an away seat: its presence grace, or less when that seat is
  // on move and its turn clock runs out first.
  function awayText(seat) {
    const key = opponent(seat) ? "away_banner" : "away_banner_other";
    const turn = secondsOf(state.clock, seat, state.version);
    const waits = presence.secondsLeft(seat);
    return t(key, { name: names()[seat] || "?", n: turn === null ? waits : Math.min(waits, turn) });
  }

  function goneText(seat) {
    return t(opponent(seat) ? "gone_banner" : "gone_banner_other", { name: names()[seat] || "?" });
  }

  // Said once to screen readers when another seat's presence changes (the banner itself
  // counts down silently), after what was just said rather than instead of it (a card played
  // a moment before the player left is still heard). The first frame only sets the scene.
  function sayPresence(before) {
    if (!Object.keys(before).length) return;
    const words = [];
    for (const [seat, entry] of Object.entries(presence.seats)) {
      if (Number(seat) === state.seat || before[seat]?.state === entry.state) continue;
      if (entry.state === "away") words.push(awayText(Number(seat)));
      else if (entry.state === "gone") words.push(goneText(Number(seat)));
      else if (before[seat]) words.push(t("presence_connected", { name: names()[seat] || "?" }));
    }
    const earlier = document.getElementById("sr-live")?.textContent;
    if (words.length) say([earlier, ...words].filter(Boolean).join(". "));
  }

  function awayBanner() {
    const away = othersIn("away");
    const gone = othersIn("gone");
    if (state.view.match_over || (!away.length && !gone.length)) return null;
    return h(
      "div",
      { class: "presence-banner", "data-testid": "away-banner" },
      away.map((seat) => h("p", { "data-away-seat": String(seat) }, awayText(seat))),
      gone.map((seat) => h("p", { "data-gone-seat": String(seat) }, goneText(seat))),
    );
  }

  // The seconds left count down once a second while another seat is away.
  function tickAway() {
    const counting = state.view && !state.view.match_over && othersIn("away").length > 0;
    if (counting && awayTicker === null) {
      awayTicker = setInterval(() => {
        for (const el of root.querySelectorAll("[data-away-seat]")) el.textContent = awayText(Number(el.dataset.awaySeat));
      }, 1000);
    } else if (!counting && awayTicker !== null) {
      clearInterval(awayTicker);
      awayTicker = null;
    }
  }

  async function claimVictory(seat, remedy = "win") {
    state.confirmClaim = null;
    render();
    try {
      await call("POST", `/api/tables/${tableId}/claim-victory`, { seat, remedy });
    } catch (error) {
      toast(failure(error));
    }
  }

  function claimPanel(seat) {
    if (state.confirmClaim !== seat) {
      const ask = () => {
        state.confirmClaim = seat;
        render();
        root.querySelector("[data-action=claim-victory-yes]")?.focus();
      };
      return h(
        "div",
        { class: "claim-choices" },
        h("button", { class: "button primary", type: "button", "data-action": "claim-victory", onclick: ask }, t("claim_victory")),
        // The match goes on with a computer player in the seat; its player may take it back.
        // Not in a tournament: there the gone player loses the game (the server refuses too).
        eventOf() ? null : h("button", { class: "button ghost", type: "button", "data-action": "hand-to-computer", onclick: () => claimVictory(seat, "bot") }, t("hand_to_computer", { name: names()[seat] || "?" })),
      );
    }
    return h(
      "div",
      { class: "confirm", role: "group", "aria-labelledby": "claim-stake" },
      h("span", { id: "claim-stake" }, t("claim_victory_stake", { name: names()[seat] || "?" })),
      h("button", { class: "button primary", type: "button", "data-action": "claim-victory-yes", onclick: () => claimVictory(seat) }, t("yes_claim_victory")),
      h("button", { class: "button ghost", type: "button", onclick: () => { state.confirmClaim = null; render(); } }, t("cancel")),
    );
  }

  // -- actions ------------------------------------------------------------------------

  function send(action) {
    if (!socket.act(action)) {
      toast(t("reconnecting"));
      return;
    }
    state.marriageFor = null;
    state.confirmResign = false;
    state.confirmLeave = false;
    render();
  }

  // Aborting: until every seat has acted in the first deal, a seated player ends the match
  // with no winner and no rating change; the table waits for a new match.
  async function abortMatch() {
    try {
      await call("POST", `/api/tables/${tableId}/abort`, { leave: false });
    } catch (error) {
      toast(failure(error));
    }
  }

  // Leaving: before the match starts it frees the seat; during play it resigns the match for
  // the player's side (after a confirmation) and goes back to the lobby once it is over.
  async function leaveTable() {
    try {
      await call("POST", `/api/tables/${tableId}/leave`);
      navigate("/");
    } catch (error) {
      toast(failure(error));
    }
  }

  // A seated player gives the first empty seat to a computer player of `level` (the table
  // starts once every seat is taken; the socket brings the match).
  async function addComputer(level) {
    try {
      state.table = await call("POST", `/api/tables/${tableId}/bots`, { level });
      render();
    } catch (error) {
      toast(failure(error));
    }
  }

  function computerSeats(table) {
    const empty = table.seats.filter((s) => !s.player_id).length;
    if (table.status !== "open" || !empty) return null;
    return h(
      "div",
      { class: "add-computer", role: "group", "aria-labelledby": "add-computer-title", "data-testid": "add-computer" },
      h("p", { id: "add-computer-title" }, t("add_computer", { n: empty })),
      h(
        "div",
        { class: "add-computer-levels" },
        ["easy", "medium", "hard", "expert"].map((level) =>
          h("button", { class: "button small", type: "button", "data-action": "add-computer", "data-level": level, onclick: () => addComputer(level) }, t(`bot_level_${level}`)),
        ),
      ),
    );
  }

  function resignAndLeave() {
    state.leaving = true;
    send({ type: "resign" });
  }

  function leavePanel() {
    if (!state.confirmLeave) {
      return h("button", { class: "button ghost subtle", type: "button", "data-action": "leave", onclick: () => { state.confirmLeave = true; render(); } }, t("leave_table"));
    }
    return h(
      "div",
      { class: "confirm", role: "group", "aria-labelledby": "leave-stake" },
      h("span", { id: "leave-stake", "data-testid": "leave-stake" }, t("leave_during_play")),
      h("button", { class: "button danger", type: "button", "data-action": "leave-yes", onclick: resignAndLeave }, t("yes_leave")),
      h("button", { class: "button ghost", type: "button", onclick: () => { state.confirmLeave = false; render(); } }, t("cancel")),
    );
  }

  function legal() {
    return state.view && seated() ? state.view.legal : [];
  }

  function playsOf(code) {
    return legal().filter((a) => a.type === "play" && a.card === code);
  }

  function chooseCard(code) {
    const plays = playsOf(code);
    if (!plays.length) {
      toast(reasonFor(code));
      return;
    }
    if (plays.some((a) => a.marriage) && plays.some((a) => !a.marriage)) {
      state.marriageFor = code;
      render();
      // No scroll: the choice shows under the table (kept in view on a phone, talon.css).
      document.querySelector(".marriage-choice button")?.focus({ preventScroll: true });
      return;
    }
    send(plays[0]);
  }

  // Why a card may not be played is the server's word: the view's `unplayable` gives the code
  // the server would refuse it with, and errors.js has its sentence in every language. Cards
  // held back only because it is not this player's moment are dimmed less.
  const WAIT_CODES = new Set(["not_your_turn", "bidding_not_over", "deal_over", "match_over"]);

  function reasonCode(code) {
    return (state.view.unplayable || {})[code] || null;
  }

  function reasonFor(code) {
    if (!state.online) return t("reconnecting");
    const reason = reasonCode(code);
    return reason ? errorText(reason) : t("not_legal");
  }

  function handCard(code) {
    const ok = playsOf(code).length > 0 && state.online;
    const el = cardElement(code, { button: true, zone: "hand" });
    el.dataset.legal = String(ok);
    el.tabIndex = -1;
    if (!ok) {
      const reason = reasonFor(code);
      el.classList.add("illegal");
      if (WAIT_CODES.has(reasonCode(code))) el.classList.add("waiting");
      el.setAttribute("aria-disabled", "true");
      el.dataset.reasonCode = reasonCode(code) || "";
      el.dataset.reason = reason;
      el.title = reason;
      el.setAttribute("aria-label", `${cardName(code)}. ${reason}`);
    }
    el.addEventListener("click", () => chooseCard(code));
    el.addEventListener("focus", () => {
      state.focusCard = code;
    });
    return el;
  }

  function handKeys(event) {
    const cards = [...root.querySelectorAll(".hand.mine .card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = cards[(i + 1) % cards.length];
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = cards[(i - 1 + cards.length) % cards.length];
    if (next) {
      event.preventDefault();
      cards.forEach((c) => (c.tabIndex = -1));
      next.tabIndex = 0;
      next.focus();
    }
  }

  async function join() {
    const input = root.querySelector("#join-name");
    const name = input ? input.value.trim() : me()?.name;
    if (!name) {
      toast(t("name_needed"));
      input?.focus();
      return;
    }
    try {
      await identify(name);
      const body = { contribution: contribute(tableId, state.table?.next_commitment) };
      if (params.get("invite")) body.invite_code = params.get("invite");
      state.table = await call("POST", `/api/tables/${tableId}/join`, body);
      connect(); // greet again with the token, now as a seated player
    } catch (error) {
      if (error.code === "bad_invite_code") {
        state.badInvite = true;
        render();
      } else {
        toast(failure(error));
      }
    }
  }

  async function reclaim() {
    try {
      await call("POST", `/api/tables/${tableId}/reclaim`);
    } catch (error) {
      toast(failure(error));
    }
  }

  // The socket's rematch frames come in order and are the latest word; the answer to this
  // page's own request may come after a frame that followed it (the other player declined at
  // once), so it is shown only when no frame came meanwhile.
  let rematchFrames = 0;
  async function askRematch(path, body) {
    const seen = rematchFrames;
    const answer = await call("POST", `/api/tables/${tableId}/${path}`, body);
    return rematchFrames === seen ? answer.rematch : null;
  }

  async function rematch() {
    try {
      const answer = await askRematch("rematch", { contribution: contribute(tableId, state.table?.next_commitment) });
      if (answer?.outcome === "pending") showRematch(answer);
      render();
    } catch (error) {
      if (error.code !== "match_live") toast(failure(error));
    }
  }

  async function declineRematch() {
    try {
      const answer = await askRematch("rematch/decline");
      if (answer) showRematch(answer);
      render();
    } catch (error) {
      toast(failure(error));
    }
  }

  // A rematch frame (or answer): the offer to show, its seconds counted down while it stands.
  function showRematch(frame) {
    state.rematch = frame && frame.outcome !== "started" ? rematchFrom(frame) : null;
    clearInterval(rematchTimer);
    rematchTimer = null;
    if (state.rematch?.outcome !== "pending") return;
    rematchTimer = setInterval(() => {
      const left = root.querySelector("[data-testid=rematch-seconds]");
      if (left && state.rematch) left.textContent = t("rematch_seconds", { n: secondsLeft(state.rematch) });
    }, 1000);
  }

  // -- drawing ------------------------------------------------------------------------

  // The tab's title says when it is this player's move, so a player in another tab sees it.
  const pageTitle = document.title;
  function tabTitle() {
    const v = state.view;
    const yourMove = v && !v.match_over && state.seat !== null && state.seat !== undefined && v.to_move === state.seat;
    document.title = yourMove ? t("your_move_title") : pageTitle;
  }

  function render() {
    cancelAnimationFrame(frameAsked);
    frameAsked = 0;
    if (!alive || presses.held()) return;
    tabTitle();
    const focused = document.activeElement?.closest?.(".hand.mine .card")?.dataset.card;
    if (state.missing) {
      mount(root, h("section", { class: "panel narrow" }, h("h1", {}, t("not_found")), lobbyLink()));
      return;
    }
    if (state.noWatching && !seated() && state.table?.status !== "open") {
      // The server said why in the error frame before it closed: the reason and the way back.
      // (A table still waiting for players shows its join form instead.)
      mount(
        root,
        h("section", { class: "panel narrow", "data-testid": "no-watching" }, h("h1", {}, t(`err_${state.refusal || "invite_required"}`)), h("a", { href: "/", "data-link": true, class: "button primary" }, t("back_to_lobby"))),
      );
      return;
    }
    if (state.badInvite && !seated()) {
      mount(
        root,
        h("section", { class: "panel narrow", "data-testid": "bad-invite" }, h("h1", {}, t("bad_invite_title")), h("p", {}, t("bad_invite_help")), h("a", { href: "/", "data-link": true, class: "button primary" }, t("back_to_lobby"))),
      );
      return;
    }
    if (!state.table) {
      mount(root, h("p", { class: "loading" }, t("loading")));
      return;
    }
    if (!state.view) {
      // Frames may arrive while someone types a name: keep what was typed, and the focus.
      const typed = root.querySelector("#join-name");
      const hadFocus = typed && document.activeElement === typed;
      mount(root, waitingRoom());
      const input = root.querySelector("#join-name");
      if (typed && input) {
        input.value = typed.value;
        if (hadFocus) input.focus();
      }
      return;
    }
    chat.update({ seated: seated(), live: state.table.status === "live", me: me() ? me().id : null });
    chat.keepFocus(() => mount(root, livePage()));
    tickAway();
    const target =
      (focused && root.querySelector(`.hand.mine .card[data-card="${focused}"]`)) ||
      root.querySelector(".hand.mine .card[data-legal='true']") ||
      root.querySelector(".hand.mine .card");
    if (target) target.tabIndex = 0;
    if (focused && target) target.focus();
  }

  function lobbyLink() {
    return h("a", { href: "/", "data-link": true, class: "button ghost" }, t("back_to_lobby"));
  }

  function waitingRoom() {
    const table = state.table;
    const full = table.seats.every((s) => s.player_id);
    const host = table.seats.find((s) => s.player_id)?.name || "?";
    if (seated()) {
      const link = table.invite_url ? location.origin + new URL(table.invite_url).pathname + new URL(table.invite_url).search : location.href;
      const input = h("input", { id: "invite-link", class: "invite-link", readonly: true, value: link, "aria-label": t("invite_help") });
      const copy = h("button", { class: "button", type: "button", onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(link);
          copy.textContent = t("copied");
        } catch {
          document.execCommand?.("copy");
          copy.textContent = t("copied");
        }
      } }, t("copy_link"));
      return h(
        "section",
        { class: "panel narrow waiting", "data-testid": "waiting" },
        state.aborted ? h("p", { class: "aborted-notice", "data-testid": "aborted", role: "status" }, state.aborted) : null,
        // Every seat still taken (after an abort): nobody to invite, a new match to agree on.
        h("h1", {}, t(full ? "new_match" : "invite_title")),
        h("div", { class: "spinner", "aria-hidden": "true" }, ["C", "H", "S", "D"].map(suitIcon)),
        full ? null : h("p", {}, t("invite_help")),
        full ? null : h("div", { class: "copy-row" }, input, copy),
        rulesLine(table),
        computerSeats(table),
        newMatch(table),
        h(
          "div",
          { class: "leave-row" },
          h("button", { class: "button ghost", type: "button", "data-action": "leave", onclick: leaveTable }, t("leave_table")),
          h("small", { class: "muted" }, t("leave_before_start")),
        ),
      );
    }
    const free = table.status === "open" && table.seats.some((s) => !s.player_id);
    const mine = me();
    return h(
      "section",
      { class: "panel narrow join" },
      h("h1", {}, t("join_title", { name: host })),
      rulesLine(table),
      free
        ? h(
            "form",
            { class: "join-form", onsubmit: (e) => { e.preventDefault(); join(); } },
            mine
              ? h("p", {}, t("playing_as", { name: mine.name }))
              : h("label", {}, t("your_name"), h("input", { id: "join-name", maxlength: 24, required: true, placeholder: t("name_placeholder"), autocomplete: "nickname" })),
            h("button", { class: "button primary", type: "submit" }, t("take_seat")),
          )
        : h("p", {}, t("join_full")),
      lobbyLink(),
    );
  }

  // Every seat still taken at a waiting table (a match was aborted): a new match starts when
  // every player accepts it, through the same offers as a rematch.
  function newMatch(table) {
    if (table.status !== "open" || table.seats.some((s) => !s.player_id)) return null;
    const offer = rematchParts(state.rematch, state.seat, names(), { offer: rematch, decline: declineRematch, label: "new_match" });
    return h(
      "div",
      { class: "new-match", "data-testid": "new-match" },
      h("p", {}, t("waiting_new_match")),
      offer.notice,
      h("div", { class: "dialog-buttons" }, offer.buttons),
    );
  }

  function livePage() {
    const v = state.view;
    const spectator = !seated();
    const bottom = spectator ? 0 : state.seat;
    const turn =
      v.to_move === null || v.deal_over
        ? null
        : v.to_move === state.seat
          ? h("span", { class: "turn mine", role: "status" }, t("your_turn"))
          : h("span", { class: "turn", role: "status" }, t("their_turn", { name: names()[v.to_move] || "?" }));
    const header = h(
      "div",
      { class: "table-head" },
      scoreboard(v, names()),
      h(
        "div",
        { class: "head-right" },
        spectator ? h("span", { class: "badge watching", "data-testid": "watching" }, t("watching")) : null,
        turn,
        v.match_over ? null : clockStrip(state.clock, names(), state.version),
      ),
    );
    const felt = board({
      view: v,
      names: names(),
      bottom,
      me: spectator ? null : state.seat,
      hands: spectator ? {} : { [state.seat]: v.hand },
      handCard,
      showLast: state.showLast,
      holdLast: Date.now() < state.peekUntil,
      fresh: state.fresh,
      callout: state.callout,
      presence: (seat) => presence.stateOf(seat),
    });
    felt.querySelector(".hand.mine")?.addEventListener("keydown", handKeys);
    return h(
      "section",
      {
        class: `table-page${spectator ? " spectating" : ""}`,
        dataset: {
          version: String(state.version),
          myTurn: String(!spectator && v.to_move === state.seat && !v.deal_over),
          online: String(state.online),
          dealNo: String(v.deal_no),
        },
      },
      header,
      takeoverNotice(state.table, me(), reclaim),
      awayBanner(),
      h("div", { class: "table-body" }, felt, sidePanel(v, spectator)),
      overlay(),
    );
  }

  function sidePanel(v, spectator) {
    const buttons = [];
    if (v.last_trick) {
      buttons.push(
        h("button", { class: "button ghost", type: "button", "aria-pressed": String(state.showLast), onclick: () => { state.showLast = !state.showLast; render(); } },
          t(state.showLast ? "hide_last_trick" : "last_trick")),
      );
    }
    if (eventOf()) buttons.push(eventLink(false));
    // What the player may do on this turn (bid, marriage, exchange, close, claim) comes first,
    // right under the table; on a phone it stays in view while the table does (talon.css).
    const turn = h("div", { class: "actions turn-actions", role: "toolbar", "aria-label": t("actions_label"), "data-testid": "turn-actions" });
    const actions = h("div", { class: "actions" });
    if (!spectator && state.online) {
      const types = new Set(legal().map((a) => a.type));
      if (types.has("bid") || types.has("pass")) turn.append(biddingPanel());
      if (state.marriageFor) turn.append(marriageChoice(state.marriageFor));
      if (types.has("exchange")) turn.append(actionButton("exchange", t("exchange")));
      if (state.confirm) turn.append(confirmPanel(state.confirm));
      else {
        if (types.has("close")) turn.append(riskyButton("close", t("close")));
        if (types.has("claim")) turn.append(riskyButton("claim", t("claim_66")));
      }
      if (!v.match_over) {
        for (const seat of othersIn("gone").filter(opponent)) turn.append(claimPanel(seat));
        if (state.abortable) {
          // Until every seat has acted the match may be aborted: no winner, no rating change.
          actions.append(
            h("button", { class: "button ghost", type: "button", "data-action": "abort", onclick: () => abortMatch() }, t("abort")),
          );
        }
        if (state.confirmResign) {
          actions.append(
            h("div", { class: "confirm", role: "group" },
              h("span", {}, t("resign_confirm")),
              h("button", { class: "button danger", type: "button", "data-action": "resign-yes", onclick: () => send({ type: "resign" }) }, t("yes_resign")),
              h("button", { class: "button ghost", type: "button", onclick: () => { state.confirmResign = false; render(); } }, t("cancel"))),
          );
        } else {
          actions.append(
            h("button", { class: "button ghost subtle", type: "button", "data-action": "resign", onclick: () => { state.confirmResign = true; render(); } }, t("resign")),
          );
        }
        actions.append(leavePanel());
      }
    }
    return h(
      "aside",
      { class: "side" },
      turn,
      spectator ? null : hints(),
      v.bid_goals && v.bid_goals.length ? biddingHistory(v) : null,
      actions,
      h("div", { class: "side-buttons" }, buttons),
      dealLog(v),
      chat.element,
    );
  }

  // Close and claim cannot be taken back: the player sees what is at stake and confirms,
  // unless they asked not to be asked again (remembered per player in this browser).
  const SKIP_CONFIRM = "talon.skipConfirm";

  function skipped() {
    try {
      return JSON.parse(localStorage.getItem(SKIP_CONFIRM) || "{}")[me()?.id] || [];
    } catch {
      return [];
    }
  }

  function skipFromNowOn(type) {
    let all = {};
    try {
      all = JSON.parse(localStorage.getItem(SKIP_CONFIRM) || "{}");
    } catch {
      all = {};
    }
    all[me().id] = [...new Set([...(all[me().id] || []), type])];
    localStorage.setItem(SKIP_CONFIRM, JSON.stringify(all));
  }

  function riskyButton(type, label) {
    const ask = () => {
      if (skipped().includes(type)) {
        send({ type });
        return;
      }
      state.confirm = type;
      render();
      document.querySelector(".confirm [data-action=confirm-yes]")?.focus({ preventScroll: true });
    };
    return h("button", { class: "button", type: "button", "data-action": type, onclick: ask }, label);
  }

  function stake(type) {
    const rules = state.view.rules;
    const name = names().filter((_, seat) => seat !== state.seat).join(", ");
    return type === "close" ? t(`stake_close_${rules.close_fail}`, { name }) : t(`stake_claim_${rules.wrong_claim}`, { name });
  }

  function confirmPanel(type) {
    const remember = h("input", { type: "checkbox", id: "skip-confirm" });
    const yes = () => {
      if (remember.checked) skipFromNowOn(type);
      state.confirm = null;
      send({ type });
    };
    return h(
      "div",
      { class: "confirm", role: "group", "aria-labelledby": "stake" },
      h("p", { id: "stake", class: "stake", "data-testid": "stake" }, stake(type)),
      h("button", { class: "button primary", type: "button", "data-action": "confirm-yes", onclick: yes }, t(type === "close" ? "yes_close" : "yes_claim")),
      h("button", { class: "button ghost", type: "button", "data-action": "confirm-no", onclick: () => { state.confirm = null; render(); } }, t("cancel")),
      h("label", { class: "remember" }, remember, " ", t("dont_ask_again")),
    );
  }

  // A first game's hints at each game, until the player says they have read them (remembered in
  // this browser for each kind of game: reading the two-player hints leaves the three- and
  // four-player ones to come).
  const HINTS_SEEN = "talon.hintsSeen";

  /** The hints for a game with these rules (the view's `rules`) and its rules page anchor. */
  function hintsFor(variant, rules) {
    const keys = ["hint_cards"];
    if (rules.trump_from === "dealer_last") keys.push("hint_trump_dealer_last");
    else if (rules.trump_from === "first_led") keys.push("hint_trump_first_led");
    else keys.push("hint_trump");
    if (rules.bidding) keys.push("hint_marriage", "hint_goal_bidding");
    else if (rules.played_out === "redeal" && rules.players === 3) keys.push("hint_marriage", "hint_goal_three_hand");
    else keys.push("hint_marriage", "hint_goal");
    if (rules.players === 3 && rules.trump_from === "turned") keys.push("hint_set_aside");
    if (rules.deck === 48) keys.push("hint_twins");
    if (rules.partners && !rules.bidding) keys.push("hint_partners");
    const kind = rules.players === 2 ? "" : `.${variant}.${rules.players}${rules.partners ? ".partners" : ""}`;
    return { keys, seen: HINTS_SEEN + kind };
  }

  function hints() {
    const rules = state.view?.rules;
    const variant = state.table?.variant;
    if (!rules || !variant) return null;
    const { keys, seen } = hintsFor(variant, rules);
    if (localStorage.getItem(seen) === "1") return null;
    const done = () => {
      localStorage.setItem(seen, "1");
      render();
    };
    return h(
      "section",
      { class: "hints", "aria-labelledby": "hints-title", "data-testid": "hints", dataset: { variant } },
      h("h2", { id: "hints-title" }, t("hints_title")),
      h(
        "ul",
        {},
        keys.map((key) => h("li", {}, t(key))),
        h("li", {}, h("a", { href: `/rules#${variant}`, "data-link": true }, t("hint_rules"))),
      ),
      h("button", { class: "button small", type: "button", "data-action": "hints-done", onclick: done }, t("hints_done")),
    );
  }

  // "Deal 2: Anna deals, trump is hearts", or, until the first card led names it (four-hand),
  // that trump is not named yet.
  function dealTitle(n, name, trump) {
    return trump ? t("ann_deal", { n, name, suit: t(`suit_${trump}`) }) : t("ann_deal_no_trump", { n, name });
  }

  function dealLog(v) {
    const n = names();
    const s = sides();
    const earlier = v.deal_results;
    const points = (r) => r.game_points.map((x) => (x > 0 ? `+${x}` : String(x))).join(" : ");
    return h(
      "section",
      { class: "deal-log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title", class: "log-title" }, v.trump ? [suitIcon(v.trump), " "] : null, dealTitle(v.deal_no, n[v.dealer] || "?", v.trump)),
      h(
        "ol",
        { class: "announcements", "aria-label": t("log_label", { n: v.deal_no }), "data-deal": String(state.log.deal) },
        state.log.entries.map((a, i) => h("li", { class: i === 0 ? "fresh" : "" }, a.text)),
      ),
      earlier.length
        ? h(
            "details",
            { class: "earlier-deals" },
            h("summary", {}, t("earlier_deals")),
            h("ol", {}, [...earlier].reverse().map((r) => h("li", {}, r.trump ? [suitIcon(r.trump), " "] : null, t("log_result", { n: r.deal_no, name: r.winner === null || r.winner === undefined ? "—" : s[r.winner] || "?", points: points(r) })))),
          )
        : null,
    );
  }

  // Four-hand bidding: a button per level the server allows (what it must reach, from the
  // server's `bid_goals`), and pass.
  function goalText(level) {
    const goal = (state.view.bid_goals || []).find((g) => g.level === level);
    return goal && goal.needs !== null ? t("bid_needs", { n: goal.needs }) : t("bid_every_trick");
  }

  function biddingPanel() {
    const bids = legal().filter((a) => a.type === "bid");
    return h(
      "div",
      { class: "bidding", role: "group", "aria-label": t("bidding_title"), "data-testid": "bidding" },
      bids.map((a) =>
        h("button", { class: "button", type: "button", "data-action": "bid", "data-level": String(a.level), onclick: () => send(a) },
          h("strong", {}, a.level === 5 ? t("bid_luna") : t("bid_level", { level: a.level })), " ", h("small", {}, goalText(a.level))),
      ),
      legal().some((a) => a.type === "pass") ? actionButton("pass", t("bid_pass"), "ghost") : null,
      bids.some((a) => a.level === 5) ? h("p", { class: "luna-note" }, t("luna_explained")) : null,
    );
  }

  // The calls so far and the bid that stands, for everyone at the table.
  function biddingHistory(v) {
    // Who is who among the callers: the viewer, and at four the viewer's partner.
    const partner = partnerOf(v, v.seat);
    const n = names().map((name, seat) => (seat === v.seat ? `${name} (${t("you")})` : seat === partner ? `${name} (${t("your_partner")})` : name));
    const high = v.high_bid;
    return h(
      "section",
      { class: "bids", "aria-labelledby": "bids-title", "data-testid": "bids" },
      h("h2", { id: "bids-title", class: "log-title" }, t("bidding_title")),
      v.bids.length
        ? h("ol", { class: "bid-list" }, v.bids.map((b) => h("li", {}, `${n[b.seat] || "?"}: ${b.level ? (b.level === 5 ? t("bid_luna") : t("bid_level", { level: b.level })) : t("bid_pass")}`)))
        : h("p", { class: "muted" }, t("bidding_none")),
      high && !v.bidding ? h("p", { class: "high-bid" }, t("bid_stands", { name: n[high.seat] || "?", level: high.level, goal: goalText(high.level) })) : null,
    );
  }

  function actionButton(type, label, kind = "") {
    return h("button", { class: `button ${kind}`, type: "button", "data-action": type, onclick: () => send({ type }) }, label);
  }

  // What the marriage is worth, and whether it waits for a trick, is the server's word too.
  function marriageChoice(code) {
    const plays = playsOf(code);
    const offer = (state.view.declarable || []).find((m) => m.suit === code[1]);
    const points = offer ? offer.points : "";
    const note = offer && offer.pending ? t("ann_pending", { points, name: names()[state.seat] || "?" }) : null;
    return h(
      "div",
      { class: "marriage-choice", role: "group" },
      h("button", { class: "button primary", type: "button", "data-action": "marriage", "data-points": String(points), onclick: () => send(plays.find((a) => a.marriage)) },
        suitIcon(code[1]), " ", t("marriage_offer", { points })),
      note ? h("span", { class: "marriage-note", "data-testid": "marriage-pending" }, note) : null,
      h("button", { class: "button ghost", type: "button", "data-action": "play-alone", onclick: () => send(plays.find((a) => !a.marriage)) },
        t("play_alone", { card: cardShort(code) })),
    );
  }

  function rulesLine(table) {
    const o = table.options || {};
    return h(
      "p",
      { class: "rules-line" },
      [t(`variant_${table.variant}`), t("target_points", { n: o.target }), t(`claim_${o.claim}`)].join(" · "),
    );
  }

  // -- deal summary and match end -----------------------------------------------------

  function overlay() {
    const s = state.summary;
    if (!s) return null;
    const v = state.view;
    const over = s.match || v.match_over;
    const parts = [];
    if (over) parts.push(...matchEnd(v), ...challengeOthers());
    if (s.result) parts.push(...dealSummary(s.result, names(), v.rules, s.tricks, over ? "deal-title" : "dialog-title", v.sides));
    if (over) parts.push(dealsTable(v));
    // An event's table plays one match: its way on is back to the event, not a rematch.
    const offer = over && !eventOf() ? rematchParts(state.rematch, state.seat, names(), { offer: rematch, decline: declineRematch }) : null;
    if (offer?.notice) parts.splice(2, 0, offer.notice); // under the winner: seen without scrolling
    const buttons = over
      ? [
          ...(offer ? offer.buttons : [eventLink(true)]),
          h("a", { class: "button ghost", href: "/", "data-link": true }, t("back_to_lobby")),
          state.matchId ? h("a", { class: "button ghost", href: `/history/${state.matchId}/verify`, "data-link": true, "data-action": "verify" }, t("verify_link")) : null,
        ]
      : [h("button", { class: "button primary", type: "button", "data-action": "continue", onclick: () => { state.summary = null; render(); } }, t("continue"))];
    // The buttons sit in a footer that never scrolls away, however many deals the match had.
    return h(
      "div",
      { class: "overlay" },
      h(
        "div",
        { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title", "data-testid": "summary" },
        h("div", { class: "dialog-body" }, parts),
        h("div", { class: "dialog-buttons" }, buttons),
      ),
    );
  }

  function matchEnd(v) {
    const n = sides();
    const w = v.match_winner;
    const gp = v.game_points;
    const others = gp.filter((_, seat) => seat !== w);
    // A resignation decides the match whatever the score (which may still be 0:0).
    const last = v.deal_results.at(-1);
    const line =
      last && last.termination === "resign" && last.resigned !== null && last.resigned !== undefined
        ? t("match_winner_resigned", { name: n[w], loser: names()[last.resigned] || "?" })
        : t("match_winner", { name: n[w], a: gp[w], b: others.join(":") });
    return [
      h("h2", { id: "dialog-title", class: "match-title" }, t("match_over")),
      h("p", { class: "winner-line big", "data-testid": "match-winner" }, line),
    ];
  }

  // The other players of a finished match, each with a button to challenge them again (kept
  // across redraws, so an open form stays open while the rematch offer counts down).
  function challengeOthers() {
    const others = (state.table?.seats || []).filter((s) => s.player_id && s.seat !== state.seat && !s.player_id.startsWith("bot."));
    return others.map((s) => {
      if (!challengeBoxes.has(s.player_id)) challengeBoxes.set(s.player_id, challengeButton({ id: s.player_id, name: s.name }));
      return challengeBoxes.get(s.player_id);
    });
  }

  function dealsTable(v) {
    const n = sides();
    return h(
      "table",
      { class: "summary deals" },
      h("caption", {}, t("deals")),
      h("thead", {}, h("tr", {}, h("th", {}, "#"), n.map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, v.deal_results.map((r) => h("tr", {}, h("th", { scope: "row" }, String(r.deal_no)), r.game_points.map((x) => h("td", {}, String(x)))))),
    );
  }

  render(); // "loading" until the table comes
  refreshTable().then(() => {
    if (alive && !state.missing) connect();
  });
  return {
    render,
    leave() {
      alive = false;
      presses.stop();
      cancelAnimationFrame(frameAsked);
      clearTimeout(freshTimer);
      clearInterval(rematchTimer);
      clearTimeout(peekTimer);
      clearInterval(clockTimer);
      clearInterval(awayTicker);
      if (socket) socket.stop();
      banner(null);
      document.title = pageTitle;
    },
  };
}
