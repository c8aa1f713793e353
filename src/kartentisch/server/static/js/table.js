// A table: the websocket connection (docs/protocol.md), whose turn it is, the clock, the
// players, the game's board, explanations, hints, the log, and the end of the game.

import {createChat} from "./chat.js";
import {gameModule} from "./games/index.js";
import {createHost, hostingFor} from "./host.js";
import {number, reason, setParamHook, t, tn} from "./i18n.js";
import {botLabel, rememberTable} from "./lobby.js";
import {myName, nameForm, seatLabel} from "./names.js";
import {PACES, arrivals, pace, pacer, setPace, setSound, soundOn, turnSignal} from "./pacing.js";
import {felt} from "./seats.js";
import {api, h, replace} from "./util.js";
import {sentenceCase} from "./words.js";

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
  const moved = arrivals();
  const signal = turnSignal();
  const queue = pacer(show, (m) => !m.full && !!m.last && (st.watcher || m.last.seat !== st.seat));

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
    queue.stop();
    signal.clear();
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
        renderSoon();  // no update need follow (another person's turn): draw the watcher's view
      }
      if (notice) {
        say(notice, "info");
        if (hostPanel && st.host) hostPanel.load();
      }
    } else if (m.type === "update") {
      queue.push(m);
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

  /** Show one update (the pacer hands them over one after another). */
  function show(m) {
    const changed = !st.update || st.update.move !== m.move;
    st.events = m.full ? m.events : st.events.concat(m.events);
    st.update = m;
    st.sending = false;
    if (m.full) moved.reset();
    if (changed) {
      st.hint = null;
      mod().reset();
      if (st.message && st.message.kind !== "foul") st.message = null;
    }
    for (const ev of m.events) {
      if (ev.kind === "foul" && !m.full) {
        st.message = {text: mod().event(ev, ui()) || "", kind: "foul", seat: ev.seat};
      } else if (st.message && st.message.kind === "foul" &&
                 (ev.kind === "turn" || ev.kind === "game_over")) {
        st.message = null;  // the foul's turn is over: its banner goes
      }
    }
    if (m.status === "finished" && st.message && st.message.kind === "foul") st.message = null;
    if (st.table) st.table.status = m.status;
    if (pace() > 0 && st.table) render();  // paced: each move is drawn when its time comes
    else renderSoon();
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

  /** A seat's name: the person's name when the seats carry one, else "Seat N". */
  function plainName(seat) {
    return seatLabel(st.table && st.table.seats, seat);
  }

  function name(seat) {
    if (seat === null || seat === undefined) return "";
    const base = seatLabel(st.table && st.table.seats, seat);
    return seat === st.seat ? `${base} ${t("(you)")}` : base;
  }

  function ui() {
    return {t, tn, number, name, play, attempt, say, legal: legal(), seat: st.seat,
            acting: !!(st.update && st.update.legal.length) && !st.sending,
            watcher: st.watcher, rerender: render, players: st.table.players, events: st.events};
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

  /** The clock at the seat to move: seconds left, nothing without a time limit. */
  function seatClock() {
    const u = st.update;
    if (!u || u.status === "finished" || u.deadline === null) return "";
    return t("{seconds} s", {seconds: Math.max(0, Math.ceil((u.deadline - Date.now()) / 1000))});
  }

  function clockText() {
    const u = st.update;
    if (!u || u.status === "finished" || u.status === "closed") return "";
    if (u.deadline === null) return t("no time limit");
    const left = Math.max(0, Math.ceil((u.deadline - Date.now()) / 1000));
    return t("{seconds} s left for this move", {seconds: left});
  }

  /** What the felt shows at a seat: name, kind, the game's line, turn and clock. */
  function seatInfo(seat) {
    const u = st.update;
    const s = st.table.seats[seat] || {seat, kind: "human"};
    const turn = u.status !== "finished" && u.to_move === seat;
    const bot = s.kind === "bot";
    const kind = bot ? null : s.left ? t("person (a bot stands in)") : s.connected ? t("person (here)") :
      t("person (away)");
    const line = mod().playerInfo(u.observation, seat, ui());
    return {seat, name: name(seat), initial: s.name || String(seat), bot, botMark: bot ? botLabel(s.bot) : null,
            botShort: bot ? (s.strength ? `${t("Bot")} ${s.strength}` : t("Bot")) : null,
            kind, line, toMove: turn, clock: turn ? seatClock() : "", out: mod().out(u.observation, seat),
            label: [name(seat), bot ? botLabel(s.bot) : null, kind, line, turn ? t("to move") : null]
              .filter(Boolean).join(", ")};
  }

  function settings() {
    const chosen = pace();
    const labels = {instant: t("instant"), quick: t("quick"), normal: t("normal"), slow: t("slow")};
    return h("details", {class: "settings", dataset: {key: "settings"}},
      h("summary", {}, t("Settings")),
      h("label", {}, t("Pace of the other players' moves"), " ",
        h("select", {id: "pace", onchange: (e) => {
          setPace(Number(e.target.value));
          if (Number(e.target.value) === 0) queue.flush();
        }}, PACES.map(([ms, key]) => h("option", {value: ms, selected: ms === chosen}, labels[key])))),
      h("label", {}, h("input", {type: "checkbox", id: "sound", checked: soundOn(),
                                 onchange: (e) => setSound(e.target.checked)}),
        " ", t("A sound when it is your turn")));
  }

  function logBox() {
    const lines = [];
    for (const ev of st.events) {
      const text = mod().event(ev, ui());
      if (text) lines.push({text, kind: ev.kind});
    }
    const shown = lines.slice(-150);
    return h("section", {class: "log", "aria-label": t("Log")},
      h("h2", {}, t("Log")),
      h("ol", {id: "log", tabindex: "0", "aria-label": t("Log")},
        shown.map((l) => h("li", {class: `ev-${l.kind}`}, l.text))));
  }

  function movesList() {
    const moves = legal();
    if (!moves.length) return null;
    return h("details", {class: "moves", dataset: {key: "moves"}},
      h("summary", {}, tn("All allowed moves ({n})", "All allowed moves ({n})", moves.length)),
      h("ul", {}, moves.map((m) => h("li", {},
        h("button", {type: "button", class: "move", dataset: {move: m.text, key: `move-${m.id}`},
                     onclick: () => play(m.id)}, sentenceCase(mod().describeMove(m.text, ui())))))));
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
                id: "replay-link"}, t("Step through this game")),
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
    setParamHook((n, v) => (n === "seat" || n === "current") && Number.isInteger(v) ? name(v) :
      mod().param(n, v, ui()));
    const focusKey = document.activeElement && document.activeElement.dataset ?
      document.activeElement.dataset.key : null;
    const u = st.update;
    const info = ui();
    const mine = u.legal.length > 0;
    const hintButton = st.hintsAllowed && mine ?
      h("button", {type: "button", id: "hint", dataset: {key: "hint"}, onclick: askHint}, t("Hint")) : null;
    const parts = mod().board({
      obs: u.observation, legal: u.legal, acting: info.acting, seat: st.seat,
      finished: u.status === "finished", reveal: u.reveal || null, hint: st.hint}, info);
    replace(root, h("section", {class: `table-view game-${st.table.game}${mine ? " my-turn" : ""}`,
                               dataset: {move: u.move, status: u.status, seat: st.seat ?? "watch"}},
      h("div", {class: "topbar"},
        h("h1", {}, st.table.title),
        h("span", {class: "role"}, st.watcher ? t("You are watching.") : name(st.seat)),
        h("span", {class: "move-no"}, t("Move {move}", {move: u.move})),
        settings()),
      h("div", {class: `turn${mine ? " mine" : ""}`, id: "turn", role: "status"},
        h("strong", {}, turnLine()), " ", h("span", {id: "clock", class: "clock"}, clockText()),
        " ", hintButton, " ", seatButtons()),
      felt({players: st.table.players, me: st.watcher ? null : st.seat, seatInfo, label: t("Players")},
        parts, [statusBox(), movesList()]),
      askName(),  // below the felt: the game does not wait for it, the first screen shows the game
      u.status === "finished" || u.status === "closed" ? null : parts.below || null,
      endPanel(),
      hostPanel && st.host ? hostPanel.panel() : null,
      h("div", {class: "night-side"}, logBox(), chat.panel())));
    const log = root.querySelector("#log");
    if (log) log.scrollTop = log.scrollHeight;  // the newest line at the bottom, in view
    moved.run(root);
    signal.show(mine, `${st.table.title} · kartentisch`, t("Your turn"));
    if (focusKey) {
      const again = root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus({preventScroll: true});
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
    for (const at of root.querySelectorAll("[data-clock]")) at.textContent = seatClock();
  }, 250);
  render();
  connect();
  return view;
}
