// A table: the websocket connection (docs/protocol.md), whose turn it is, the clock, the
// players, the game's board, explanations, hints, the log, and the end of the game.

import {createChat} from "./chat.js";
import {gameModule} from "./games/index.js";
import {createHost, hostingFor} from "./host.js";
import {number, reason, setParamHook, t, tn} from "./i18n.js";
import {botLabel, rememberTable} from "./lobby.js";
import {myName, nameForm, seatLabel} from "./names.js";
import {api, h, replace} from "./util.js";

const V = 1;

export function showTable(root, {token = null, watcher = false, host = null}) {
  // The host token: from a #host= address, or remembered for the table of this seat link;
  // a #host= address sits at the host's own seat when this browser knows its link.
  const hosting = hostingFor({host, seat: token});
  if (hosting && !host) host = hosting.host;
  if (host && !token && hosting && hosting.mine) token = hosting.mine;
  const st = {
    token, watcher, ws: null, closed: false, table: null, seat: null, update: null,
    events: [], message: null, hint: null, hintsAllowed: false, sending: false, ref: 0,
    clockTimer: null, retry: 0, finishedShown: false, renderPending: false, host: false,
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
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    st.ws = ws;
    ws.addEventListener("open", () => {
      st.retry = 0;
      ws.send(JSON.stringify({v: V, type: "hello", token: token || undefined,
                              host: host || undefined, name: myName() || undefined}));
    });
    ws.addEventListener("message", (e) => receive(JSON.parse(e.data)));
    ws.addEventListener("close", () => {
      if (st.closed) return;
      st.retry = Math.min(st.retry + 1, 5);
      say(t("The connection was lost; connecting again…"), "warn");
      setTimeout(() => { if (!st.closed) connect(); }, 500 * st.retry);
    });
  }

  function send(message) {
    if (st.ws && st.ws.readyState === WebSocket.OPEN) st.ws.send(JSON.stringify({v: V, ...message}));
  }

  function close() {
    st.closed = true;
    clearInterval(st.clockTimer);
    if (st.ws) st.ws.close();
  }

  function receive(m) {
    if (m.type === "welcome") {
      st.table = m.table;
      st.seat = m.seat;
      st.watcher = m.role === "watcher";
      st.hintsAllowed = m.table.hints !== false && !st.watcher;  // stored with the table
      st.host = !!m.host;
      chat.history(m.chat);
      if (hostPanel && st.host) hostPanel.load();
    } else if (m.type === "chat") {
      const notice = chat.receive(m);
      if (m.kind === "notice" && m.text === "host.removed" && m.params &&
          m.params.seat === st.seat && !st.watcher) {
        st.seat = null;  // the host removed this person: the server treats us as a watcher
        st.watcher = true;
        st.hintsAllowed = false;
      }
      if (notice) {
        say(notice, "info");
        if (hostPanel && st.host) hostPanel.load();
      }
    } else if (m.type === "update") {
      const moved = !st.update || st.update.move !== m.move;
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
      if (st.table) st.table.status = m.status;
      renderSoon();
    } else if (m.type === "seats") {
      if (st.table) st.table.seats = m.seats;
      chat.refresh();
      if (hostPanel && st.host) hostPanel.refresh();
      renderSoon();
    } else if (m.type === "error") {
      st.sending = false;
      if (m.code === "move.stale") send({type: "sync"});
      say(reason(m), "error");
    } else if (m.type === "notice") {
      if (m.n === undefined) say(reason(m), "warn");  // a logged one comes as a chat entry too
    }
  }

  // ------------------------------------------------------------------ acting
  function mod() { return gameModule(st.table.game); }

  function legal() { return st.update ? st.update.legal : []; }

  function play(id) {
    if (st.sending || !st.update) return;
    st.sending = true;
    st.ref += 1;
    send({type: "move", move: st.update.move, action: id, ref: st.ref});
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
    if (u.to_move === st.seat && !st.watcher) {
      const mine = st.table.seats[st.seat];
      if (mine && mine.left) return t("A bot plays your seat while you are away.");
      return t("Your turn.");
    }
    return t("{name} is to move.", {name: name(u.to_move)});
  }

  function clockText() {
    const u = st.update;
    if (!u || u.status === "finished" || u.status === "closed") return "";
    if (u.deadline === null) return t("no time limit");
    const left = Math.max(0, Math.ceil((u.deadline - Date.now()) / 1000));
    return t("{seconds} s left for this move", {seconds: left});
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
    for (const ev of st.events) {
      const text = mod().event(ev, ui());
      if (text) lines.push({text, kind: ev.kind});
    }
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
    return h("section", {class: "end", id: "end", "aria-live": "polite"},
      h("h2", {}, closed ? t("The table is closed") : t("Game over")),
      closed ? h("p", {}, t("The host closed the table; what was played stays its record.")) :
        mod().summary(u.observation, u.returns, u.reveal, ui()),
      h("div", {class: "row"},
        st.watcher || closed ? null : h("button", {type: "button", class: "primary", id: "play-again",
                                          onclick: playAgain}, t("Play again")),
        h("a", {class: "button", href: `#replay=${encodeURIComponent(tableId)}&view=${me}`,
                id: "replay-link"}, t("Replay this game")),
        h("a", {class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record`,
                download: `kartentisch-${tableId}.json`}, t("Download the record")),
        h("a", {class: "button", href: "#"}, t("Back to the lobby"))));
  }

  async function playAgain() {
    const info = st.table;
    const seats = info.seats.map((s) => s.kind === "human" ? {kind: "human"} :
      {kind: "bot", bot: s.bot, ...(s.strength ? {strength: s.strength} : {})});
    const request = {table: {game: info.game, players: info.players, options: info.options,
                             seats, clock: info.clock},
                     hints: info.hints !== false};
    const [status, answer] = await api("/api/web/tables", request);
    if (status !== 201) { say(answer ? reason(answer) : t("The server did not answer."), "error"); return; }
    rememberTable(answer, request);
    const mine = answer.seats.find((s) => s.seat === st.seat);
    location.hash = `seat=${mine.token}`;
  }

  /** A person's first table: the name is asked once (remembered in this browser); the game
   * does not wait for it. The form is kept across renders, so typing survives updates. */
  function askName() {
    if (st.watcher || myName() || (st.update && st.update.status !== "playing")) return null;
    if (!st.nameForm) {
      st.nameForm = h("section", {class: "ask-name"}, nameForm({
        title: t("Who is playing?"), button: t("Use this name"), id: "seat-name", focus: false,
        done: (name) => { send({type: "name", name}); st.nameForm = null; render(); }}));
    }
    return st.nameForm;
  }

  function seatButtons() {
    if (st.watcher || !st.update || st.update.status !== "playing") return null;
    const mine = st.table.seats[st.seat];
    if (!mine || mine.kind !== "human") return null;
    return mine.left ?
      h("button", {type: "button", dataset: {key: "take-seat"}, onclick: () => send({type: "take_seat"})},
        t("Take my seat back")) :
      h("button", {type: "button", class: "quiet", dataset: {key: "leave"}, onclick: () => send({type: "leave"})},
        t("Let a bot play for me"));
  }

  /** Render at the next frame: a burst of messages (the bots' moves after yours) is drawn
   * once. A hidden tab gets no frames, so a timer renders it too. */
  function renderSoon() {
    if (st.renderPending) return;
    st.renderPending = true;
    const run = () => { if (st.renderPending) render(); };
    requestAnimationFrame(run);
    setTimeout(run, 250);
  }

  function render() {
    st.renderPending = false;
    if (!st.table || !st.update) {
      replace(root, h("p", {class: "connecting"}, t("Connecting…")), statusBox());
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
                               dataset: {move: u.move, status: u.status, seat: st.seat ?? "watch"}},
      h("div", {class: "topbar"},
        h("h1", {}, st.table.title),
        h("span", {class: "role"}, st.watcher ? t("You are watching.") : name(st.seat)),
        h("span", {class: "move-no"}, t("move {move}", {move: u.move}))),
      askName(),
      h("div", {class: `turn${u.legal.length ? " mine" : ""}`, id: "turn", role: "status"},
        h("strong", {}, turnLine()), " ", h("span", {id: "clock", class: "clock"}, clockText()),
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
    const el = root.querySelector("#clock");
    if (el) el.textContent = clockText();
  }, 250);
  render();
  connect();
  return view;
}
