// The replay of a finished game: step forwards and backwards, from any seat, as a watcher,
// or with all hands open (GET /api/web/replay/{table}?view=..., or a record file).

import {gameModule} from "./games/index.js";
import {number, reason, setParamHook, t, tn} from "./i18n.js";
import {reviewPanel} from "./review.js";
import {felt} from "./seats.js";
import {teamName, teamOf, teamResult, teamResultText} from "./teams.js";
import {h, replace} from "./util.js";

export function showReplay(root, params) {
  const st = {data: null, index: 0, view: params.view || "all", table: params.replay || "",
              error: null, record: null};
  const view = {relabel: render, close: () => document.removeEventListener("keydown", onKey)};

  async function load() {
    const query = `view=${encodeURIComponent(st.view)}`;
    let response;
    if (st.table) {
      response = await fetch(`/api/web/replay/${encodeURIComponent(st.table)}?${query}`);
    } else if (st.record) {
      response = await fetch(`/api/web/replay?${query}`, {method: "POST", body: st.record,
                                                          headers: {"Content-Type": "application/json"}});
    } else {
      render();
      return;
    }
    const data = await response.json();
    if (response.status !== 200) { st.error = reason(data); st.data = null; } else {
      st.error = null;
      const keep = st.data ? st.index : 0;  // a replay starts at the beginning
      st.data = data;
      st.index = Math.min(keep, data.frames.length - 1);
    }
    render();
  }

  function name(seat) {
    if (seat === null || seat === undefined) return "";
    const names = st.data && st.data.names;
    const base = names && names[seat] ? names[seat] : t("Seat {seat}", {seat});
    return String(seat) === st.view ? `${base} ${t("(you)")}` : base;
  }

  function ui() {
    const say = () => {};
    return {t, tn, number, name, play: say, attempt: say, say, legal: [],
            seat: /^\d+$/.test(st.view) ? Number(st.view) : null, acting: false, watcher: true,
            rerender: render, players: st.data ? st.data.players : 0};
  }

  function go(index) {
    if (!st.data) return;
    st.index = Math.max(0, Math.min(st.data.frames.length - 1, index));
    render();
  }

  function onKey(e) {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowLeft") go(st.index - 1);
    else if (e.key === "ArrowRight") go(st.index + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(Infinity);
  }

  function render() {
    const upload = h("label", {class: "upload"}, t("Open a record file"), " ",
      h("input", {type: "file", accept: ".json,application/json", onchange: async (e) => {
        const file = e.target.files[0];
        if (!file) return;
        st.record = await file.text();
        st.table = "";
        st.data = null;
        load();
      }}));
    if (!st.data) {
      replace(root, h("section", {class: "replay"}, h("h1", {}, t("Replay")),
        st.error ? h("p", {class: "message error", role: "alert"}, st.error) : h("p", {}, t("Loading…")),
        upload));
      return;
    }
    const data = st.data;
    const mod = gameModule(data.game);
    setParamHook((n, v) => mod.param(n, v, ui()));
    const frame = data.frames[st.index];
    const last = data.frames.length - 1;
    const views = [["all", t("all hands open")], ["watch", t("as a watcher")]];
    for (let s = 0; s < data.players; s++) views.push([String(s), t("from seat {seat}", {seat: s})]);
    const events = [];
    const raw = [];
    for (const f of data.frames.slice(0, st.index + 1)) {
      for (const ev of f.events) {
        raw.push(ev);
        const text = mod.event(ev, {...ui(), events: raw});
        if (text) events.push({text, kind: ev.kind});
        if (ev.kind === "game_over" && data.teams && data.teams.length && data.returns) {
          events.push({text: teamResultText(data.teams, data.returns, name), kind: "team-result"});
        }
      }
    }
    const info = {...ui(), events: raw};
    const moveLine = frame.seat === null ? t("The deal, before the first move.") :
      frame.text ? t("Move {n} by {name}: {move}.", {n: frame.move, name: name(frame.seat), move: mod.describeMove(frame.text, info)}) :
        t("Move {n}: {name} moves.", {n: frame.move, name: name(frame.seat)});
    const finished = st.index === last && data.returns;
    const me = /^\d+$/.test(st.view) ? Number(st.view) : null;
    const obs = frame.observation;
    const parts = mod.board({obs, legal: [], acting: false, seat: me, finished: !!finished,
                             options: data.options || {},
                             reveal: finished ? data.reveal : null, hint: null}, info);
    const toMove = data.frames[st.index + 1] ? data.frames[st.index + 1].seat : null;
    const seatInfo = (seat) => {
      const kind = data.seats && data.seats[seat];
      const bot = kind && typeof kind === "object" ? kind.kind === "bot" : kind && kind !== "human";
      const line = mod.playerInfo(obs, seat, info);
      const team = teamOf(data.teams, seat);
      return {seat, name: name(seat), team, initial: data.names && data.names[seat] ? data.names[seat] : String(seat), bot: !!bot, botMark: bot ? t("Bot") : null, kind: null,
              line, toMove: toMove === seat, clock: "", out: mod.out(obs, seat),
              label: [name(seat), team === null ? null : teamName(team), line].filter(Boolean).join(", ")};
    };
    const button = (id, label, target) => h("button", {type: "button", id, onclick: () => go(target()),
      disabled: id === "first" || id === "back" ? st.index === 0 : st.index === last}, label);
    replace(root, h("section", {class: `replay table-view game-${data.game}`,
                               dataset: {view: data.view === null ? "watch" : String(data.view)}},
      h("div", {class: "topbar"}, h("h1", {}, t("Replay")),
        h("label", {}, t("View"), " ", h("select", {id: "replay-view", onchange: (e) => {
          st.view = e.target.value;
          if (st.table) history.replaceState(null, "", `#replay=${encodeURIComponent(st.table)}&view=${st.view}`);
          load();
        }}, views.map(([v, label]) => h("option", {value: v, selected: v === st.view}, label))))),
      h("div", {class: "replay-controls", role: "group", "aria-label": t("Replay controls")},
        button("first", t("To the start"), () => 0),
        button("back", t("Previous move"), () => st.index - 1),
        h("input", {type: "range", min: 0, max: last, value: st.index, id: "step",
                    "aria-label": t("Position in the game"), oninput: (e) => go(Number(e.target.value))}),
        button("forward", t("Next move"), () => st.index + 1),
        button("last", t("To the end"), () => last),
        h("span", {id: "step-text"}, t("Position {index} of {count}", {index: st.index, count: last})),
        h("span", {class: "help"}, t("Arrow keys: one move back or forward; Home and End: start and end."))),
      h("p", {class: "move-line", role: "status"}, moveLine),
      reviewPanel({table: st.table, index: st.index, go, rerender: render,
                   describe: (text) => mod.describeMove(text, info)}),
      felt({players: data.players, me: parts.mine ? me : null, seatInfo, label: t("Players")}, parts),
      finished ? null : parts.below || null,
      finished ? h("section", {class: "end"}, h("h2", {}, t("Game over")),
        mod.summary(obs, data.returns, data.reveal, info),
        teamResult(data.teams, data.returns, {name, me,
          score: mod.teamScore ? (seats) => mod.teamScore(obs, seats) : null})) : null,
      h("section", {class: "log", "aria-label": t("Log")}, h("h2", {}, t("Log")),
        h("ol", {tabindex: "0", "aria-label": t("Log")},  // scrollable: reachable by keyboard
          events.slice(-150).map((l) => h("li", {class: `ev-${l.kind}`}, l.text)))),
      upload));
  }

  document.addEventListener("keydown", onKey);
  load();
  return view;
}
