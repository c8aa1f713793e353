// The host's page: whoever created a table keeps its host token in this browser
// (localStorage, by table id) and, from any tab, sees every invitation link again
// (POST /api/web/host/links), lets a bot of a chosen strength play a person's seat and gives
// it back, removes an absent player (the old link stops working, a new one is shown) and
// closes the table. The server tells everyone each act (a notice in the table talk).

import {reason, t} from "./i18n.js";
import {botLabel} from "./lobby.js";
import {seatLabel} from "./names.js";
import {api, copyText, h, replace} from "./util.js";

const KEY = "kartentisch.hosts";
const SEARCH_BOTS = ["ismcts", "pimc"];

/** Every table this browser hosts: {table id: {host, game, title, seats: {seat: token},
 * mine, at}} (``mine``: the token of the host's own seat, if they sit at the table). */
export function hostedTables() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
}

function saveHosted(all) {
  const kept = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
}

/** Remember the create answer's host token and seat links (``mine``: the seat the host
 * named as their own, or null). */
export function rememberHosting(answer, {game, title, mine}) {
  const all = hostedTables();
  const seats = {};
  for (const s of answer.seats) if (s.token) seats[s.seat] = s.token;
  all[answer.table] = {host: answer.host.token, game, title, seats,
                       mine: mine === null || mine === undefined ? null : seats[mine] || null,
                       at: Date.now()};
  saveHosted(all);
}

/** The remembered hosting of the table whose host token or seat token is given. */
export function hostingFor({host, seat}) {
  for (const [table, entry] of Object.entries(hostedTables())) {
    if ((host && entry.host === host) ||
        (seat && Object.values(entry.seats || {}).includes(seat))) return {table, ...entry};
  }
  return null;
}

let gamesCache = null;
async function gameInfo(game) {
  if (!gamesCache) {
    const [status, data] = await api("/api/games");
    if (status === 200) gamesCache = data;
  }
  const found = gamesCache ? gamesCache.games.find((g) => g.name === game) : null;
  return {bots: found ? found.bots : [], strengths: gamesCache ? gamesCache.strengths : {}};
}

/** The host panel of one table: ``send`` sends on its websocket, ``state()`` gives
 * {table, seat, update} as the table view knows them; ``token`` is the host token. */
export function createHost({send, state, token, say}) {
  const panel = h("section", {class: "host-panel", id: "host-panel", "aria-label": ""});
  const view = {links: null, bots: [], strengths: {}, choice: {}, confirm: null, loading: null};

  async function load() {
    if (view.loading) return view.loading;
    view.loading = (async () => {
      const [status, data] = await api("/api/web/host/links", {host: token});
      if (status === 200) {
        const info = await gameInfo(data.game);
        view.bots = info.bots;
        view.strengths = info.strengths;
        view.links = data;
      } else if (data && data.code) {
        say(reason(data), "error");
      }
      view.loading = null;
      refresh();
    })();
    return view.loading;
  }

  function copyRow(link, label, key) {
    const input = h("input", {type: "text", readonly: true, value: link, class: "link",
                              "aria-label": label});
    return h("span", {class: "link-row"}, input,
      h("button", {type: "button", class: "copy", dataset: {key}, onclick: async (e) => {
        e.target.textContent = (await copyText(link, input)) ? t("Copied") : t("Copy");
      }}, t("Copy")));
  }

  function confirmRow(key, question, yes, act) {
    if (view.confirm !== key) return null;
    return h("div", {class: "confirm", role: "alertdialog", "aria-label": question},
      h("span", {}, question), " ",
      h("button", {type: "button", class: "danger", dataset: {key: `${key}-yes`}, onclick: () => {
        view.confirm = null;
        act();
        refresh();
      }}, yes), " ",
      h("button", {type: "button", dataset: {key: `${key}-no`}, onclick: () => {
        view.confirm = null;
        refresh();
      }}, t("Cancel")));
  }

  function ask(key) { view.confirm = key; refresh(); }

  function seatStatus(live, s) {
    if (s.kind === "bot") return botLabel(s.bot);
    if (s.open) return t("open in the lobby: the first person to take it gets its link");
    if (s.left && s.bot) return t("{bot} plays this seat", {bot: botLabel(s.bot)});
    if (s.left) return t("a stand-in bot plays until someone joins with the link");
    if (live && live.connected) return t("here");
    return s.joined ? t("away") : t("has not joined yet");
  }

  function botChooser(s) {
    let choice = view.choice[s.seat];
    if (!choice || !view.bots.includes(choice.bot)) {
      choice = {bot: view.bots.includes("heuristic") ? "heuristic" : view.bots[0], strength: 3};
      view.choice[s.seat] = choice;
    }
    const strength = SEARCH_BOTS.includes(choice.bot) ?
      h("select", {class: "host-strength", "aria-label": t("strength"),
                   onchange: (e) => { choice.strength = Number(e.target.value); }},
        Object.entries(view.strengths).map(([level, seconds]) =>
          h("option", {value: level, selected: Number(level) === choice.strength},
            t("{level} ({seconds} s per move)", {level, seconds})))) : null;
    return h("span", {class: "bot-choice"},
      h("select", {class: "host-bot", "aria-label": t("Bot for this seat"),
                   onchange: (e) => { choice.bot = e.target.value; refresh(); }},
        view.bots.map((b) => h("option", {value: b, selected: b === choice.bot}, botLabel(b)))),
      " ", strength, " ",
      h("button", {type: "button", class: "seat-bot", dataset: {key: `seat-bot-${s.seat}`},
                   onclick: () => send({type: "seat_bot", seat: s.seat, bot: choice.bot,
                                        ...(SEARCH_BOTS.includes(choice.bot) ?
                                          {strength: choice.strength} : {})})},
        t("Let this bot play the seat")));
  }

  function seatRow(s, table, playing) {
    const live = table ? table.seats[s.seat] : null;
    const current = live ? {...s, ...live} : s;
    const label = seatLabel(table ? table.seats : null, s.seat);
    const actions = [];
    const own = state().seat === s.seat;  // the host's own seat: "Let a bot play for me"
    if (playing && current.kind === "human" && !own) {
      if (!current.left && !current.open) actions.push(botChooser(current));
      else if (current.left && current.bot) {
        actions.push(h("button", {type: "button", class: "seat-human",
                                  dataset: {key: `seat-human-${s.seat}`},
                                  onclick: () => send({type: "seat_human", seat: s.seat})},
          t("Give the seat back to its person")));
      }
      if (!current.open) {
        actions.push(h("button", {type: "button", class: "remove quiet",
                                  dataset: {key: `remove-${s.seat}`},
                                  onclick: () => ask(`remove-${s.seat}`)},
          t("Remove this player")));
      }
    }
    return h("li", {class: "host-seat", dataset: {seat: s.seat}},
      h("div", {class: "host-seat-head"},
        h("strong", {}, label), " ", h("span", {class: "host-seat-status"}, seatStatus(live, current))),
      s.link ? copyRow(s.link, t("Link for {name}", {name: label}), `copy-${s.seat}`) :
        s.claimed ? h("p", {class: "help"}, t("Taken in the lobby: the link is with that person.")) : null,
      actions.length ? h("div", {class: "host-actions"}, actions) : null,
      confirmRow(`remove-${s.seat}`,
        t("Remove {name}? Their link stops working; you get a new link for this seat.", {name: label}),
        t("Remove"), () => send({type: "remove", seat: s.seat})));
  }

  function refresh() {
    const {table, update} = state();
    panel.setAttribute("aria-label", t("Host"));
    if (!view.links) {
      replace(panel, h("h2", {}, t("Host")), h("p", {}, t("Loading…")));
      return;
    }
    const status = update ? update.status : view.links.status;
    const playing = status === "playing";
    replace(panel,
      h("h2", {}, t("Host")),
      h("p", {class: "help"}, t("Only you see this: the invitation links and what a host may do. Everyone sees what you do in the table talk.")),
      h("ul", {class: "host-seats"}, view.links.seats.map((s) => seatRow(s, table, playing))),
      h("div", {class: "host-watch"}, h("span", {}, t("Watch link")), " ",
        copyRow(view.links.watch.link, t("Watch link"), "copy-watch")),
      playing ? h("div", {class: "host-close"},
        h("button", {type: "button", class: "danger", id: "close-table", dataset: {key: "close-table"},
                     onclick: () => ask("close")}, t("Close the table")),
        confirmRow("close", t("Close the table for everyone? The game ends here; its record stays."),
          t("Close the table"), () => send({type: "close"}))) : null);
  }

  return {panel: () => panel, load, refresh};
}
