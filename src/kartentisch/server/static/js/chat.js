// The table's talk beside the log: chat lines, quick reactions and the notices of the host's
// acts (docs/protocol.md, "chat"). Everything people wrote is shown as text only (h() makes
// text nodes). Muting someone is this browser's own switch (localStorage, per table); the
// server sends everything.
//
// The panel is one element kept across the table's re-renders, so a half-typed line and the
// input's focus survive the updates that arrive while someone types.

import {reason, t} from "./i18n.js";
import {botLabel} from "./lobby.js";
import {myName, nameForm, seatLabel} from "./names.js";
import {h, replace} from "./util.js";

export const REACTIONS = [
  ["thumbs_up", "👍"], ["clap", "👏"], ["laugh", "😄"], ["wow", "😮"],
  ["think", "🤔"], ["oops", "😬"], ["gg", "🤝"], ["wave", "👋"],
];
export const CHAT_MAX = 300;

function reactionLabel(key) {
  const words = {
    thumbs_up: t("Thumbs up"), clap: t("Applause"), laugh: t("That's funny"), wow: t("Wow"),
    think: t("Let me think"), oops: t("Oops"), gg: t("Good game"), wave: t("Hello"),
  };
  return words[key] || key;
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** A notice of the table's log (a host's act, the start, the clock) in the reader's words. */
export function noticeText(entry) {
  const p = entry.params || {};
  const who = p.name || t("Seat {seat}", {seat: p.seat});
  switch (entry.text) {
    case "host.bot_seated":
      return t("The host let a bot play for {name}: {bot}.", {name: who, bot: botLabel(p.bot)});
    case "host.person_seated": return t("The host gave {name} their seat back.", {name: who});
    case "host.removed":
      return t("The host removed {name}; their seat has a new invitation link.", {name: who});
    case "host.closed": return t("The host closed the table.");
    case "clock.expired":  // the protocol counts moves from 0, players from 1
      return capitalised(reason({code: entry.text, params: {...p, name: who, move: p.move + 1}}));
    default:  // the start (a person without a name is called by their seat)
      return capitalised(reason({code: entry.text,
                                 params: "name" in p ? {...p, name: who} : p}));
  }
}

/** The chat of one table: ``send(message)`` sends on the table's websocket; ``state()`` gives
 * {table, seat, watcher} as the table view knows them now. */
export function createChat({send, state}) {
  let entries = [];
  let muteOpen = false;
  let renaming = false;
  const me = h("div", {class: "chat-me"});
  const list = h("ol", {class: "chat-lines", id: "chat-lines", "aria-live": "polite"});
  const mutes = h("div", {class: "chat-mutes"});
  const reactions = h("div", {class: "reactions", role: "group"});
  const note = h("p", {class: "help chat-note"});
  const input = h("input", {type: "text", id: "chat-input", maxlength: CHAT_MAX,
                            autocomplete: "off", dataset: {key: "chat-input"}});
  const label = h("label", {for: "chat-input", class: "sr-only"});
  const sendButton = h("button", {type: "submit", id: "chat-send", dataset: {key: "chat-send"}});
  const form = h("form", {class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({type: "chat", text});
    input.value = "";
  }}, label, input, sendButton);
  const heading = h("h2", {});
  const panel = h("section", {class: "chat", id: "chat"}, heading, list, reactions, form, note,
                  me, mutes);

  function muteKey() {
    const table = state().table;
    return `kartentisch.mute.${table ? table.id : ""}`;
  }
  function muted() {
    try { return new Set(JSON.parse(localStorage.getItem(muteKey()) || "[]")); } catch (e) {
      return new Set();
    }
  }
  function setMuted(key, on) {
    const all = muted();
    if (on) all.add(key); else all.delete(key);
    localStorage.setItem(muteKey(), JSON.stringify([...all]));
    refresh();
  }
  function senderKey(entry) {
    return entry.seat === null || entry.seat === undefined ? "watchers" : `seat:${entry.seat}`;
  }

  function who(entry) {
    const {table} = state();
    if (entry.seat !== null && entry.seat !== undefined) {
      return entry.name || seatLabel(table && table.seats, entry.seat);
    }
    return entry.name ? t("{name} (watching)", {name: entry.name}) : t("A watcher");
  }

  function line(entry) {
    if (entry.kind === "notice") {
      return h("li", {class: "chat-line kind-notice", dataset: {n: entry.n}}, noticeText(entry));
    }
    const mine = state().seat !== null && entry.seat === state().seat;
    const body = entry.kind === "react" ?
      h("span", {class: "reaction"},
        h("span", {"aria-hidden": "true"}, (REACTIONS.find(([k]) => k === entry.text) || ["", ""])[1]),
        " ", reactionLabel(entry.text)) :
      h("span", {class: "text"}, entry.text);
    return h("li", {class: `chat-line kind-${entry.kind}${mine ? " own-line" : ""}`, dataset: {n: entry.n}},
      h("span", {class: "who"}, who(entry)), ": ", body);
  }

  /** Who this page writes as, and the way to another name (the same form, prefilled). */
  function renderMe(mayTalk) {
    const name = myName();
    if (!mayTalk || !name) { replace(me); return; }
    if (renaming) {  // kept while open: updates arriving meanwhile keep what was typed
      if (!renaming.isConnected || me.firstChild !== renaming) replace(me, renaming);
      return;
    }
    replace(me, h("span", {class: "help"}, t("You write as {name}.", {name})), " ",
      h("button", {type: "button", class: "quiet", id: "rename-open", dataset: {key: "rename-open"},
                   onclick: () => {
                     renaming = nameForm({title: t("Change name"), button: t("Use this name"),
                       id: "rename", done: (chosen) => {
                         renaming = false;
                         send({type: "name", name: chosen});
                         refresh();
                       }});
                     refresh();
                   }}, t("Change name")));
  }

  function refresh() {
    const {table, seat, watcher} = state();
    const hidden = muted();
    replace(heading, t("Table talk"));
    replace(list, entries.filter((e) => e.kind === "notice" || !hidden.has(senderKey(e)))
      .slice(-100).map(line));
    list.scrollTop = list.scrollHeight;
    const mayTalk = !watcher || (table && table.watcher_chat);
    input.disabled = !mayTalk;
    sendButton.disabled = !mayTalk;
    input.placeholder = t("Write to the table…");
    replace(label, t("Message to the table"));
    replace(sendButton, t("Send"));
    replace(note, mayTalk ? "" : t("Watchers cannot chat at this table."));
    renderMe(mayTalk);
    reactions.setAttribute("aria-label", t("Quick reactions"));
    replace(reactions, REACTIONS.map(([key, symbol]) => h("button", {
      type: "button", class: "reaction-button", title: reactionLabel(key),
      "aria-label": reactionLabel(key), disabled: !mayTalk, dataset: {reaction: key, key: `react-${key}`},
      onclick: () => send({type: "react", reaction: key})},
      h("span", {class: "reaction-symbol", "aria-hidden": "true"}, symbol),
      h("span", {class: "reaction-word"}, reactionLabel(key)))));
    const others = table ? table.seats.filter((s) => s.kind === "human" && s.seat !== seat) : [];
    replace(mutes, others.length || (table && table.watcher_chat) ? h("details", {
      class: "mute", open: muteOpen, ontoggle: (e) => { muteOpen = e.target.open; }},
      h("summary", {}, t("Mute")),
      others.map((s) => h("label", {class: "mute-choice"},
        h("input", {type: "checkbox", dataset: {mute: `seat:${s.seat}`},
                    checked: hidden.has(`seat:${s.seat}`),
                    onchange: (e) => setMuted(`seat:${s.seat}`, e.target.checked)}),
        " ", seatLabel(table.seats, s.seat))),
      table && table.watcher_chat ? h("label", {class: "mute-choice"},
        h("input", {type: "checkbox", dataset: {mute: "watchers"}, checked: hidden.has("watchers"),
                    onchange: (e) => setMuted("watchers", e.target.checked)}),
        " ", t("Watchers")) : null) : null);
  }

  /** The table's recent log from ``welcome`` (replaces what was shown: a reconnect repeats it). */
  function history(list) {
    entries = (list || []).slice();
    refresh();
  }

  /** A ``chat`` message from the server; returns the notice's words for a notice, else null. */
  function receive(entry) {
    if (entries.some((e) => e.n === entry.n)) return null;
    entries.push(entry);
    entries.sort((a, b) => a.n - b.n);
    refresh();
    return entry.kind === "notice" ? noticeText(entry) : null;
  }

  return {panel: () => panel, history, receive, refresh};
}
