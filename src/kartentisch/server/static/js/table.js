// A table: the websocket connection (docs/protocol.md), whose turn it is, the clock, the
// players, the game's board, explanations, hints, the log, and the end of the game.

import {createChat} from "./chat.js";
import {gameModule} from "./games/index.js";
import {createHost, hostingFor, rememberHosting} from "./host.js";
import {number, reason, setParamHook, t, tn} from "./i18n.js";
import {botLabel} from "./lobby.js";
import {myName, nameForm, seatLabel} from "./names.js";
import {rememberSeat} from "./review.js";
import {api, h, replace} from "./util.js";
import {clockElement, expiredLine, expiredNotice, tickClock} from "./clock.js";
import {connectionBanner, openConnection, otherTabBanner, unknownLinkView} from "./connection.js";
import {leaveButton, standInBanner} from "./standin.js";
import {goToRematch, rematchControls, seriesTally} from "./rematch.js";
import {waitingPanel} from "./waiting.js";

export function showTable(root, {token = null, watcher = false, host = null}) {
  // The host token: from a #host= address, or remembered for the table of this seat link;
  // a #host= address sits at the host's own seat when this browser knows its link.
  const hosting = hostingFor({host, seat: token});
  if (hosting && !host) host = hosting.host;
  if (host && !token && hosting && hosting.mine) token = hosting.mine;
  const st = {
    token, watcher, ws: null, closed: false, table: null, seat: null, update: null,
    events: [], message: null, hint: null, hintsAllowed: false, sending: false, ref: 0,
    clockTimer: null, finishedShown: false, renderPending: false,
    conn: null, active: true, keptWatching: false, clockMemory: {}, expired: null, marks: [],
    host: false, rematchOffer: null,
  };
  const view = {close, relabel: () => {
    chat.refresh();
    if (hostPanel && st.host) hostPanel.refresh();
    render();
  }};
  const chat = createChat({send, state: () => st});
  const hostPanel = host ? createHost({send, state: () => st, token: host, say}) : null;

  // ------------------------------------------------------------------ the connection
  function connect() {
    st.conn = openConnection(() => ({token: token || undefined, host: host || undefined,
                                      name: myName() || undefined}), {
      onMessage: receive,
      onChange: () => { st.sending = false; renderSoon(); },
      onQueued: (outcome) => {
        if (outcome === "refused") {
          say(t("Your move was not sent: the game went on while the connection was lost. Look at the table and choose again."), "error");
        } else {
          st.sending = true;
        }
      },
    });
  }

  function send(message) { return st.conn ? st.conn.send(message) : false; }

  function close() {
    st.closed = true;
    clearInterval(st.clockTimer);
    if (st.conn) st.conn.close();
  }

  function receive(m) {
    if (st.closed) return;  // a message still in flight when the page left the table
    if (m.type === "welcome") {
      st.table = m.table;
      st.seat = m.seat;
      st.watcher = m.role === "watcher";
      st.active = m.active !== false;
      st.host = m.host === true;
      st.hintsAllowed = m.table.hints !== false && !st.watcher;  // stored with the table
      chat.history(m.chat);
      if (hostPanel && st.host) hostPanel.load();
    } else if (m.type === "chat") {
      const notice = chat.receive(m);
      if (m.kind === "notice" && m.text === "host.removed" && m.params &&
          m.params.seat === st.seat && !st.watcher) {
        st.seat = null;  // the host removed this person: the server treats us as a watcher
        st.watcher = true;
        st.hintsAllowed = false;
        renderSoon();
      }
      if (notice) {
        say(notice, "info");
        if (hostPanel && st.host) hostPanel.load();
      }
    } else if (m.type === "active") {
      st.active = m.active;
      st.keptWatching = false;
      renderSoon();
    } else if (m.type === "update") {
      const moved = !st.update || st.update.move !== m.move;
      if (m.last && m.last.by === "clock" && !m.full && m.last.seat !== st.seat) {
        st.marks.push({at: st.events.length, text: expiredLine(name(m.last.seat), null)});
      }
      st.events = m.full ? m.events : st.events.concat(m.events);
      st.update = m;
      st.sending = false;
      if (moved) {
        st.hint = null;
        mod().reset();
        if (st.message && st.message.kind !== "foul") st.message = null;
      }
      for (const ev of m.events) {
        if (ev.kind === "foul" && !m.full) {
          st.message = {text: mod().event(ev, ui()) || "", kind: "foul"};
        }
      }
      if (st.table) {
        st.table.status = m.status;
        if (m.started !== undefined) st.table.started = m.started;
      }
      renderSoon();
    } else if (m.type === "seats") {
      if (st.table) st.table.seats = m.seats;
      chat.refresh();
      if (hostPanel && st.host) hostPanel.refresh();
      renderSoon();
    } else if (m.type === "rematch_offer") {
      st.rematchOffer = m;
      renderSoon();
    } else if (m.type === "rematch") {
      goToRematch(m, keepHosting);
    } else if (m.type === "error") {
      st.sending = false;
      if (m.code === "move.stale") send({type: "sync"});
      say(reason(m), "error");
    } else if (m.type === "notice" && m.code === "clock.expired") {
      if (m.params.seat === st.seat && !st.watcher) {
        st.expired = {move: m.params.move, text: null};  // the move's words come with the update
      }
    } else if (m.type === "notice") {
      if (m.n === undefined) say(reason(m), "warn");  // a logged one comes as a chat entry too
    }
    if (m.type === "update" && st.expired && st.expired.text === null && m.last &&
        m.last.move === st.expired.move && m.last.by === "clock") {
      const move = m.last.action ? mod().describeMove(m.last.action.text, ui()) : "";
      st.expired.text = expiredLine(name(st.seat), move);
      st.marks.push({at: st.events.length, text: st.expired.text});
    }
  }

  // ------------------------------------------------------------------ acting
  function mod() { return gameModule(st.table.game); }

  function legal() { return st.update ? st.update.legal : []; }

  function play(id) {
    if (st.sending || !st.update) return;
    st.ref += 1;
    st.expired = null;  // the player acts: the clock's notice has been seen
    if (st.conn.sendMove({type: "move", move: st.update.move, action: id, ref: st.ref})) {
      st.sending = true;
    } else {
      render();  // the connection's line now says that the move is kept
    }
  }

  /** The player tried ``text``: play it if it is allowed, else say why not (the engine's
   * reason, asked from the server). */
  async function attempt(text) {
    const found = legal().find((m) => m.text === text);
    if (found) { play(found.id); return; }
    if (st.watcher) { say(reason({code: "move.watcher", params: {}}), "error"); return; }
    const [status, data] = await api("/api/web/explain", {token, text});
    if (status === 200 && data.type === "legal" && data.move === st.update.move &&
        legal().some((m) => m.id === data.id)) {
      play(data.id);
    } else if (data && data.code) {
      say(reason(data), "error");
    } else {
      say(t("The server did not answer."), "error");
    }
  }

  function say(text, kind = "info") {
    st.message = {text, kind};
    const box = root.querySelector("#status");
    if (box) renderStatus(box);
  }

  function name(seat) {
    if (seat === null || seat === undefined) return "";
    const base = seatLabel(st.table && st.table.seats, seat);
    return seat === st.seat ? `${base} ${t("(you)")}` : base;
  }

  function ui() {
    return {t, tn, number, name, play, attempt, say, legal: legal(), seat: st.seat,
            acting: !!(st.update && st.update.legal.length) && !st.sending,
            watcher: st.watcher, rerender: render, players: st.table.players};
  }

  async function askHint() {
    const button = root.querySelector("#hint");
    if (button) button.disabled = true;
    say(t("Thinking about a hint…"));
    const [status, data] = await api("/api/web/hint", {token});
    if (status === 200 && st.update && data.move === st.update.move) {
      st.hint = data;
      st.message = null;
    } else if (data && data.code) {
      st.message = {text: reason(data), kind: "error"};
    }
    render();
  }

  // ------------------------------------------------------------------ rendering
  function renderStatus(box) {
    const parts = [];
    if (st.message) {
      parts.push(h("p", {class: `message ${st.message.kind}`}, st.message.text));
    }
    if (st.hint) {
      const chance = st.hint.win === null ? "?" : number(Math.round(st.hint.win * 100));
      parts.push(h("p", {class: "hint-result"},
        t("Hint: {move} (estimated chance to win: {chance} %)", {move: mod().describeMove(st.hint.text, ui()), chance}),
        " ", h("button", {type: "button", dataset: {key: "play-hint"},
                          onclick: () => play(st.hint.id)}, t("Play it"))));
    }
    replace(box, parts);
  }

  function turnLine() {
    const u = st.update;
    if (!u) return t("Connecting…");
    if (u.status === "finished") return t("The game is over.");
    if (u.status === "closed") return t("The host closed the table.");
    if (st.table.started === false) return t("Waiting for the other players.");
    if (u.to_move === st.seat && !st.watcher) {
      const mine = st.table.seats[st.seat];
      if (mine && mine.left) return t("A bot plays your seat while you are away.");
      return t("Your turn.");
    }
    return t("{name} is to move.", {name: name(u.to_move)});
  }

  function clockInfo() {
    return {clock: st.table ? st.table.clock : null, started: !st.table || st.table.started !== false,
            acting: !!(st.update && st.update.legal.length)};
  }

  function playersBar() {
    const obs = st.update.observation;
    return h("ol", {class: "players", "aria-label": t("Players")},
      st.table.seats.map((s) => {
        const turn = st.update.status !== "finished" && st.update.to_move === s.seat;
        const who = s.kind === "bot" ? botLabel(s.bot) :
          s.left ? t("person (a bot stands in)") : s.connected ? t("person (here)") :
            t("person (away)");
        return h("li", {class: `player${turn ? " to-move" : ""}${s.seat === st.seat ? " me" : ""}`,
                        "aria-current": turn ? "true" : null, dataset: {seat: s.seat}},
          h("span", {class: "player-name"}, name(s.seat)),
          h("span", {class: "player-kind"}, who),
          h("span", {class: "player-info"}, mod().playerInfo(obs, s.seat, ui())));
      }));
  }

  function logBox() {
    const lines = [];
    const marks = st.marks.slice();
    st.events.forEach((ev, i) => {
      while (marks.length && marks[0].at <= i) lines.push({text: marks.shift().text, kind: "clock"});
      const text = mod().event(ev, ui());
      if (text) lines.push({text, kind: ev.kind});
    });
    for (const mark of marks) lines.push({text: mark.text, kind: "clock"});
    const shown = lines.slice(-150).reverse();
    return h("section", {class: "log", "aria-label": t("Log")},
      h("h2", {}, t("Log")),
      h("ol", {id: "log", reversed: true},
        shown.map((l) => h("li", {class: `ev-${l.kind}`}, l.text))));
  }

  function movesList() {
    const moves = legal();
    if (!moves.length) return null;
    return h("details", {class: "moves", dataset: {key: "moves"}},
      h("summary", {}, tn("All allowed moves ({n})", "All allowed moves ({n})", moves.length)),
      h("ul", {}, moves.map((m) => h("li", {},
        h("button", {type: "button", class: "move", dataset: {move: m.text, key: `move-${m.id}`},
                     onclick: () => play(m.id)}, mod().describeMove(m.text, ui()))))));
  }

  function endPanel() {
    const u = st.update;
    if (u.status !== "finished" && u.status !== "closed") return null;
    const tableId = st.table.id;
    const me = st.watcher ? "all" : String(st.seat);
    const closed = u.status === "closed";
    if (!st.watcher && !closed) rememberSeat(tableId, st.seat, token);  // "Review my game" (review.js)
    return h("section", {class: "end", id: "end", "aria-live": "polite"},
      h("h2", {}, closed ? t("The table is closed") : t("Game over")),
      closed ? h("p", {}, t("The host closed the table; what was played stays its record.")) :
        mod().summary(u.observation, u.returns, u.reveal, ui()),
      closed ? null : seriesTally(tableId, (seat) => seatLabel(st.table.seats, seat)),
      h("div", {class: "row"},
        closed ? null : rematchControls({offer: st.rematchOffer, seat: st.seat,
                                         watcher: st.watcher && !st.host, name,
                                         ask: () => send({type: "rematch"})}),
        h("a", {class: "button", href: `#replay=${encodeURIComponent(tableId)}&view=${me}`,
                id: "replay-link"}, t("Replay this game")),
        h("a", {class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record`,
                download: `kartentisch-${tableId}.json`}, t("Download the record")),
        h("a", {class: "button", href: "#"}, t("Back to the lobby"))));
  }

  /** The host of this table keeps the rematch table's host token (and their seat's link),
   * so the new table's page is the host's again. */
  function keepHosting(answer) {
    if (!answer.host) return;
    const seats = answer.seat === null || answer.seat === undefined ? [] :
      [{seat: answer.seat, token: answer.link.replace(/^#seat=/, "")}];
    rememberHosting({table: answer.table, host: {token: answer.host}, seats},
                    {game: st.table.game, title: st.table.title, mine: answer.seat});
  }

  /** A person's first table: the name is asked once (remembered in this browser); the game
   * does not wait for it. The form is kept across renders, so typing survives updates. */
  function askName() {
    const talks = !st.watcher || (st.table && st.table.watcher_chat);  // a watcher who may chat
    if (!talks || myName() || (st.update && st.update.status !== "playing")) return null;
    if (!st.nameForm) {
      st.nameForm = h("section", {class: "ask-name"}, nameForm({
        title: t("Who is playing?"), button: t("Use this name"), id: "seat-name", focus: false,
        done: (name) => { send({type: "name", name}); st.nameForm = null; render(); }}));
    }
    return st.nameForm;
  }

  function mySeat() {
    return st.watcher || !st.table ? null : st.table.seats[st.seat];
  }

  function seatButtons() {
    if (!st.active) return null;
    return leaveButton(mySeat(), !st.update || st.update.status !== "playing",
      () => send({type: "leave"}));
  }

  /** The lines above the table: the connection, a second tab, a stand-in, the clock. */
  function banners() {
    const finished = st.update.status !== "playing";
    return [
      connectionBanner(st.conn),
      st.watcher ? null : otherTabBanner(st.active, st.keptWatching, {
        takeOver: () => send({type: "take_over"}),
        keep: () => { st.keptWatching = true; render(); }}),
      st.active ? standInBanner(mySeat(), finished, () => send({type: "take_seat"})) : null,
      st.expired && st.expired.text ? expiredNotice(st.expired.text, () => {
        st.expired = null; render(); }) : null,
    ];
  }

  /** Render at the next frame: a burst of messages (the bots' moves after yours) is drawn
   * once. A hidden tab gets no frames, so a timer renders it too. */
  function renderSoon() {
    if (st.renderPending) return;
    st.renderPending = true;
    // (not once the view is closed: a late message must not draw over the next view)
    const run = () => { if (st.renderPending && !st.closed) render(); };
    requestAnimationFrame(run);
    setTimeout(run, 250);
  }

  function render() {
    st.renderPending = false;
    if (st.conn && st.conn.state === "unknown") {
      replace(root, unknownLinkView());
      return;
    }
    if (!st.table || !st.update) {
      replace(root, connectionBanner(st.conn), h("p", {class: "connecting"}, t("Connecting…")),
        statusBox());
      return;
    }
    setParamHook((n, v) => mod().param(n, v, ui()));
    const focusKey = document.activeElement && document.activeElement.dataset ?
      document.activeElement.dataset.key : null;
    const u = st.update;
    const info = ui();
    const hintButton = st.hintsAllowed && u.legal.length ?
      h("button", {type: "button", id: "hint", dataset: {key: "hint"}, onclick: askHint}, t("Hint")) : null;
    replace(root, h("section", {class: `table-view game-${st.table.game}`,
                               dataset: {move: u.move, status: u.status, seat: st.seat ?? "watch",
                                         table: st.table.id}},
      h("div", {class: "topbar"},
        h("h1", {}, st.table.title),
        h("span", {class: "role"}, st.watcher ? t("You are watching.") : name(st.seat)),
        h("span", {class: "move-no"}, t("move {move}", {move: u.move}))),
      askName(),
      banners(),
      waitingPanel(st.table, {host: st.host, name, start: () => send({type: "start"})}),
      h("div", {class: `turn${u.legal.length ? " mine" : ""}`, id: "turn", role: "status"},
        h("strong", {}, turnLine()), " ", clockElement(u, clockInfo()),
        " ", hintButton, " ", seatButtons()),
      playersBar(),
      h("div", {class: "board", id: "board"}, mod().board({
        obs: u.observation, legal: u.legal, acting: info.acting, seat: st.seat,
        finished: u.status === "finished"}, info)),
      statusBox(),
      endPanel(),
      movesList(),
      hostPanel && st.host ? hostPanel.panel() : null,
      h("div", {class: "night-side"}, logBox(), chat.panel())));
    if (focusKey) {
      const again = root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  function statusBox() {
    const box = h("div", {id: "status", class: "status", role: "status", "aria-live": "assertive"});
    renderStatus(box);
    return box;
  }

  st.clockTimer = setInterval(() => {
    if (st.update) tickClock(root, st.update, clockInfo(), st.clockMemory);
  }, 250);
  render();
  connect();
  return view;
}
