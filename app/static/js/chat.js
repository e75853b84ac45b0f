// The table chat: a players' room and a spectators' room, quick phrases and free text.
// Lines come from the server (`chat_history`, `chat`) with their own sequence (`seq`), never a
// table version. Everything a person typed is inserted with textContent (through `h`, which
// makes text nodes): markup shows as the characters it is made of and no address becomes a
// link. The panel is one element kept across the table page's renders, so what is being
// typed survives every update.

import { h, say as speak } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import "./i18n-chat.js";

const PHRASES = ["good_luck", "well_played", "thanks", "rematch", "must_go"];
const ROOMS = ["players", "spectators"];
const KEPT = 200; // lines kept in the page

/**
 * @param {(message: object) => boolean} send  sends a chat message on the table's socket
 */
export function chatPanel(send) {
  const lines = new Map(); // seq -> chat frame
  const chat = {
    seated: false,
    live: false,
    me: null, // this viewer's player id, or null (an anonymous spectator)
    room: null, // the tab shown
    chosen: false, // whether the viewer picked that tab (else it follows the seat: see draw)
    showSpectators: null, // the player's choice about the spectators' room (see the server)
    maxLength: 300,
    status: null, // {text, kind}
    pending: new Map(), // id of a sent line -> the text sent
    unread: { players: 0, spectators: 0 },
  };
  let nextId = 1;

  const list = h("ol", { class: "chat-lines", "data-testid": "chat-lines" });
  const status = h("p", { class: "chat-status", role: "status" });
  const input = h("input", { class: "chat-input", type: "text", autocomplete: "off", "aria-label": t("chat_placeholder"), "data-testid": "chat-input" });
  const submit = h("button", { class: "button primary small", type: "submit" }, t("chat_send"));
  const form = h("form", { class: "chat-form", onsubmit: (event) => { event.preventDefault(); sendText(); } }, input, submit);
  const tabs = h("div", { class: "chat-tabs", role: "tablist", "aria-label": t("chat_title") });
  const phrases = h("div", { class: "chat-phrases", role: "group", "aria-label": t("chat_phrases") });
  const note = h("div", { class: "chat-note" });
  const element = h("section", { class: "chat", "aria-label": t("chat_title"), "data-testid": "chat" }, tabs, list, note, status, phrases, form);

  function id() {
    return `chat-${nextId++}`;
  }

  function rooms() {
    return chat.seated ? ROOMS : ["spectators"];
  }

  function writable(room) {
    if (!chat.me) return false;
    if (room === "players") return chat.seated;
    return !chat.seated || !chat.live;
  }

  function spectatorsHidden() {
    if (!chat.seated) return false;
    return chat.showSpectators === null ? chat.live : !chat.showSpectators;
  }

  function sendText() {
    const text = input.value.trim();
    if (!text) return;
    const ref = id();
    if (send({ type: "chat", id: ref, room: chat.room, text })) chat.pending.set(ref, input.value);
    else notice(errorText(null), "error");
  }

  function sendPhrase(code) {
    send({ type: "chat", id: id(), room: chat.room, phrase: code });
  }

  function notice(text, kind = "info") {
    chat.status = text ? { text, kind } : null;
    draw();
  }

  function mute(line) {
    send({ type: "chat_mute", id: id(), player_id: line.sender.player_id, muted: true });
    for (const [seq, other] of lines) if (other.sender.player_id === line.sender.player_id) lines.delete(seq);
    notice(t("chat_muted_sender", { name: line.sender.name }));
  }

  function report(line) {
    send({ type: "chat_report", id: id(), seq: line.seq });
    notice(t("chat_reported"));
  }

  function lineText(line) {
    return line.phrase ? t(`chat_phrase_${line.phrase}`) : line.text;
  }

  function lineElement(line) {
    const mine = chat.me && line.sender.player_id === chat.me;
    const tools = mine || !chat.me
      ? null
      : h(
          "span",
          { class: "chat-tools" },
          h("button", { class: "chat-tool", type: "button", title: t("chat_mute"), "aria-label": `${t("chat_mute")} ${line.sender.name}`, "data-action": "chat-mute", onclick: () => mute(line) }, "⊘"),
          h("button", { class: "chat-tool", type: "button", title: t("chat_report"), "aria-label": t("chat_report"), "data-action": "chat-report", onclick: () => report(line) }, "⚑"),
        );
    return h(
      "li",
      { class: `chat-line${line.phrase ? " phrase" : ""}${mine ? " mine" : ""}`, dataset: { seq: String(line.seq), room: line.room } },
      h("span", { class: "chat-name" }, mine ? `${line.sender.name} (${t("chat_you")})` : line.sender.name),
      h("span", { class: "chat-text", "data-testid": "chat-text" }, lineText(line)),
      tools,
    );
  }

  function drawTabs() {
    tabs.replaceChildren(
      ...rooms().map((room) =>
        h(
          "button",
          {
            class: "chat-tab",
            type: "button",
            role: "tab",
            "aria-selected": String(room === chat.room),
            "data-room": room,
            onclick: () => {
              chat.room = room;
              chat.chosen = true;
              chat.unread[room] = 0;
              draw();
            },
          },
          t(`chat_room_${room}`),
          chat.unread[room] && room !== chat.room ? h("span", { class: "chat-unread" }, String(chat.unread[room])) : null,
        ),
      ),
    );
    tabs.hidden = rooms().length < 2;
  }

  function drawNote() {
    note.replaceChildren();
    if (chat.room !== "spectators" || !chat.seated) return;
    if (spectatorsHidden()) {
      note.append(
        h("p", {}, t("chat_hidden_live")),
        h("button", { class: "button ghost small", type: "button", "data-action": "chat-show-spectators", onclick: () => options(true) }, t("chat_show_spectators")),
      );
    } else {
      note.append(h("button", { class: "button ghost small", type: "button", onclick: () => options(false) }, t("chat_hide_spectators")));
    }
  }

  function options(show) {
    chat.showSpectators = show;
    send({ type: "chat_options", id: id(), spectators: show });
    draw();
  }

  function draw() {
    // A seated player's room is the players' one until they pick a tab themselves: a page
    // that first drew before its viewer sat down (waiting for an opponent, the invite's
    // join form) moves there when the seat is taken.
    if (!chat.chosen || !rooms().includes(chat.room)) chat.room = rooms()[0];
    drawTabs();
    drawNote();
    const shown = [...lines.values()].filter((line) => line.room === chat.room && !(line.room === "spectators" && spectatorsHidden()));
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    list.replaceChildren(...(shown.length ? shown.map(lineElement) : [h("li", { class: "chat-empty" }, t("chat_nothing"))]));
    if (atBottom) list.scrollTop = list.scrollHeight;
    status.textContent = chat.status ? chat.status.text : "";
    status.dataset.kind = chat.status ? chat.status.kind : "";
    const open = writable(chat.room);
    input.maxLength = chat.maxLength;
    input.placeholder = open ? t("chat_placeholder") : !chat.me ? t("err_chat_needs_player") : t("chat_read_only");
    input.disabled = !open;
    submit.disabled = !open;
    submit.textContent = t("chat_send");
    phrases.replaceChildren(...(open ? PHRASES.map((code) => h("button", { class: "chat-phrase", type: "button", "data-phrase": code, onclick: () => sendPhrase(code) }, t(`chat_phrase_${code}`))) : []));
  }

  function keep(line) {
    lines.set(line.seq, line);
    if (lines.size > KEPT) lines.delete(Math.min(...lines.keys()));
    const sorted = [...lines.entries()].sort((a, b) => a[0] - b[0]);
    lines.clear();
    for (const [seq, kept] of sorted) lines.set(seq, kept);
  }

  return {
    element,
    /** The socket was (re)greeted: join the chat (the server answers with the history). */
    joined() {
      send({ type: "chat_join" });
    },
    /** Who this viewer is now and whether the match is live. */
    update({ seated, live, me }) {
      const changed = seated !== chat.seated || live !== chat.live || me !== chat.me;
      const over = chat.live && !live;
      Object.assign(chat, { seated, live, me });
      // Once the match is over a player reads the spectators' room: ask for its lines.
      if (over && seated) send({ type: "chat_join" });
      if (changed) draw();
    },
    /** A `chat*` frame from the server. */
    receive(frame) {
      if (frame.type === "chat_history") {
        lines.clear();
        frame.messages.forEach(keep);
        chat.maxLength = frame.max_length;
        chat.showSpectators = frame.show_spectators;
      } else if (frame.type === "chat") {
        keep(frame);
        if (frame.room !== chat.room) chat.unread[frame.room] += 1;
        // Screen readers hear each new line from someone else (the list itself is redrawn).
        if (frame.sender.player_id !== chat.me) speak(`${frame.sender.name}: ${lineText(frame)}`);
      } else if (frame.type === "chat_ack" && chat.pending.has(frame.id)) {
        if (input.value === chat.pending.get(frame.id)) input.value = "";
        chat.pending.delete(frame.id);
        chat.status = null;
      }
      draw();
    },
    /** An error answering one of the chat's messages: said in the panel, never dropped. */
    error(frame) {
      chat.pending.delete(frame.id);
      notice(errorText(frame.code, frame.message), "error");
    },
    /** Run `remount` (which moves this panel) and give the chat's input its focus back. */
    keepFocus(remount) {
      const focused = document.activeElement === input;
      const [start, end] = [input.selectionStart, input.selectionEnd];
      remount();
      if (focused) {
        input.focus();
        input.setSelectionRange(start, end);
      }
    },
    draw,
  };
}
