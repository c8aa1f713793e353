// A table: the websocket connection (docs/protocol.md), whose turn it is, the clock, the
// players, the game's board, explanations, hints, the log, and the end of the game.

import {createChat} from "./chat.js";
import {gameModule} from "./games/index.js";
import {createHost, hostingFor, rememberHosting} from "./host.js";
import {number, reason, setParamHook, t, tn} from "./i18n.js";
import {botLabel} from "./lobby.js";
import {myName, nameForm, seatLabel} from "./names.js";
import {PACES, arrivals, pace, pacer, setPace, setSound, soundOn, turnSignal} from "./pacing.js";
import {felt} from "./seats.js";
import {sentenceCase} from "./words.js";
import {rememberSeat} from "./review.js";
import {api, h, replace} from "./util.js";
import {clockElement, expiredLine, expiredNotice, tickClock} from "./clock.js";
import {connectionBanner, openConnection, otherTabBanner, unknownLinkView} from "./connection.js";
import {leaveButton, standInBanner} from "./standin.js";
import {goToRematch, rematchControls, seriesTally} from "./rematch.js";
import {waitingPanel} from "./waiting.js";
import {teamName, teamOf, teamResult, teamResultText, teamsBar} from "./teams.js";

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
  const moved = arrivals();
  const signal = turnSignal();
  const queue = pacer(show, (m) => !m.full && !!m.last && (st.watcher || m.last.seat !== st.seat));

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
    queue.stop();
    signal.clear();
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
        renderSoon();  // no update need follow (another person's turn): draw the watcher's view
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
      queue.push(m);
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
  }

  /** Show one update (the pacer hands them over one after another). */
  function show(m) {
    const changed = !st.update || st.update.move !== m.move;
    if (m.last && m.last.by === "clock" && !m.full && m.last.seat !== st.seat) {
      st.marks.push({at: st.events.length, text: expiredLine(name(m.last.seat), null)});
    }
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
    if (st.table) {
      st.table.status = m.status;
      if (m.started !== undefined) st.table.started = m.started;
    }
    if (st.expired && st.expired.text === null && m.last &&
        m.last.move === st.expired.move && m.last.by === "clock") {
      const move = m.last.action ? mod().describeMove(m.last.action.text, ui()) : "";
      st.expired.text = expiredLine(name(st.seat), move);
      st.marks.push({at: st.events.length, text: st.expired.text});
    }
    if (pace() > 0 && st.table) render();  // paced: each move is drawn when its time comes
    else renderSoon();
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
    if (st.table.started === false) return t("Waiting for the other players.");
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
    if (!u || u.status !== "playing" || u.deadline === null) return "";
    return t("{seconds} s", {seconds: Math.max(0, Math.ceil((u.deadline - Date.now()) / 1000))});
  }

  function clockInfo() {
    return {clock: st.table ? st.table.clock : null, started: !st.table || st.table.started !== false,
            acting: !!(st.update && st.update.legal.length)};
  }

  /** The table's teams (seats of each; [] when everyone plays alone). */
  function teams() { return (st.table && st.table.teams) || []; }

  /** A team's score when the game keeps one (its module's ``teamScore``), else null. */
  function teamScore() {
    const game = mod();
    if (!game.teamScore || !st.update) return null;
    return (seats) => game.teamScore(st.update.observation, seats);
  }

  /** What the felt shows at a seat: name, kind, the game's line, turn, clock and team. */
  function seatInfo(seat) {
    const u = st.update;
    const s = st.table.seats[seat] || {seat, kind: "human"};
    const turn = u.status === "playing" && u.to_move === seat;
    const bot = s.kind === "bot";
    const kind = bot ? null : s.left ? t("person (a bot stands in)") : s.connected ? t("person (here)") :
      t("person (away)");
    const line = mod().playerInfo(u.observation, seat, ui());
    const team = teamOf(teams(), seat);
    return {seat, name: name(seat), team, initial: s.name || String(seat), bot, botMark: bot ? botLabel(s.bot) : null,
            botShort: bot ? (s.strength ? `${t("Bot")} ${s.strength}` : t("Bot")) : null,
            kind, line, toMove: turn, clock: turn ? seatClock() : "", out: mod().out(u.observation, seat),
            label: [name(seat), team === null ? null : teamName(team), bot ? botLabel(s.bot) : null,
                    kind, line, turn ? t("to move") : null]
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
    const marks = st.marks.slice();
    st.events.forEach((ev, i) => {
      while (marks.length && marks[0].at <= i) lines.push({text: marks.shift().text, kind: "clock"});
      const text = mod().event(ev, ui());
      if (text) lines.push({text, kind: ev.kind});
      if (ev.kind === "game_over" && teams().length && st.update.returns) {
        lines.push({text: teamResultText(teams(), st.update.returns, name), kind: "team-result"});
      }
    });
    for (const mark of marks) lines.push({text: mark.text, kind: "clock"});
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
    if (!st.watcher && !closed) rememberSeat(tableId, st.seat, token);  // "Review my game" (review.js)
    return h("section", {class: "end", id: "end", "aria-live": "polite"},
      h("h2", {}, closed ? t("The table is closed") : t("Game over")),
      closed ? h("p", {}, t("The host closed the table; what was played stays its record.")) :
        mod().summary(u.observation, u.returns, u.reveal, ui()),
      closed ? null : teamResult(teams(), u.returns, {name, score: teamScore(), me: st.watcher ? null : st.seat}),
      closed ? null : seriesTally(tableId, (seat) => seatLabel(st.table.seats, seat), teams()),
      h("div", {class: "row"},
        closed ? null : rematchControls({offer: st.rematchOffer, seat: st.seat,
                                         watcher: st.watcher && !st.host, name,
                                         ask: () => send({type: "rematch"})}),
        h("a", {class: "button", href: `#replay=${encodeURIComponent(tableId)}&view=${me}`,
                id: "replay-link"}, t("Step through this game")),
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
      options: st.table.options || {},
      finished: u.status === "finished", reveal: u.reveal || null, hint: st.hint}, info);
    replace(root, h("section", {class: `table-view game-${st.table.game}${mine ? " my-turn" : ""}`,
                               dataset: {move: u.move, status: u.status, seat: st.seat ?? "watch",
                                         table: st.table.id}},
      h("div", {class: "topbar"},
        h("h1", {}, st.table.title),
        h("span", {class: "role"}, st.watcher ? t("You are watching.") : name(st.seat)),
        h("span", {class: "move-no"}, t("Move {move}", {move: u.move})),
        settings()),
      banners(),
      waitingPanel(st.table, {host: st.host, name, start: () => send({type: "start"})}),
      teamsBar(teams(), {name, score: teamScore(), me: st.watcher ? null : st.seat}),
      h("div", {class: `turn${mine ? " mine" : ""}`, id: "turn", role: "status"},
        h("strong", {}, turnLine()), " ", clockElement(u, clockInfo()),
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
    if (st.update) tickClock(root, st.update, clockInfo(), st.clockMemory);
    for (const at of root.querySelectorAll("[data-clock]")) at.textContent = seatClock();
  }, 250);
  render();
  connect();
  return view;
}
