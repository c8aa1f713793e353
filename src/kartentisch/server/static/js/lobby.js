// The lobby: choose a game, its players, rules options and seats; create the table, copy
// its links (or open a person's seat to anyone in the lobby); see the open tables, watch
// them or take a free seat.

import {reason as reasonText, t} from "./i18n.js";
import {api, copyText, h, replace} from "./util.js";
import {gameModule} from "./games/index.js";

const SEARCH_BOTS = ["ismcts", "pimc"];
const CLOCKS = [null, 30, 60, 120, 300];

/** Words for a bot's name. */
export function botLabel(bot) {
  const names = {
    random: t("random bot (plays any legal move)"),
    heuristic: t("heuristic bot (fast, rule of thumb)"),
    ismcts: t("ismcts bot (searches, strong)"),
    pimc: t("pimc bot (searches, strong)"),
  };
  return names[bot] || bot;
}

export function showLobby(root) {
  const view = {games: null, words: {}, strengths: {}, created: null, form: null, timer: null,
                relabel: () => render(), close: () => clearInterval(view.timer)};
  const tablesBox = h("div", {id: "open-tables"});

  async function load() {
    const [, games] = await api("/api/games");
    const [, web] = await api("/api/web/games");
    view.games = games.games;
    view.strengths = games.strengths;
    view.words = web.games;
    const saved = JSON.parse(sessionStorage.getItem("kartentisch.form") || "null");
    view.form = saved && view.games.some((g) => g.name === saved.game) ? saved : freshForm(view.games[0]);
    render();
    refreshTables();
    view.timer = setInterval(refreshTables, 5000);
  }

  function freshForm(game, players) {
    const count = players || game.default_players;
    const options = {};
    for (const o of game.options) options[o.name] = o.default;
    const seats = [];
    for (let i = 0; i < count; i++) {
      seats.push(i === 0 ? {kind: "human"} :
        {kind: "bot", bot: game.bots.includes("heuristic") ? "heuristic" : game.bots[0],
         strength: 3});
    }
    return {game: game.name, players: count, options, seats, hints: true, clock: null};
  }

  function game() { return view.games.find((g) => g.name === view.form.game); }

  function optionControl(option) {
    const id = `opt-${option.name}`;
    const value = view.form.options[option.name];
    const set = (v) => { view.form.options[option.name] = v; };
    // the option's label, one-line help and value words, from the game's descriptor
    const words = ((view.words[view.form.game] || {}).options || [])
      .find((o) => o.name === option.name) || {};
    let control;
    if (option.allowed === "true|false") {
      control = h("input", {type: "checkbox", id, checked: value === "true",
                            onchange: (e) => set(e.target.checked ? "true" : "false")});
    } else if (option.allowed === "int") {
      control = h("input", {type: "number", id, value, min: 0, step: 1, inputmode: "numeric",
                            onchange: (e) => set(e.target.value)});
    } else {
      control = h("select", {id, onchange: (e) => set(e.target.value)},
        option.allowed.split("|").map((v) => h("option", {value: v, selected: v === value},
          words.words && words.words[v] ? t(words.words[v]) : v)));
    }
    return h("div", {class: "option"},
      h("label", {for: id}, words.label ? t(words.label) : option.name), control,
      words.help ? h("p", {class: "help", id: `${id}-help`}, t(words.help)) : null);
  }

  function seatRow(seat, index) {
    const g = game();
    const kindId = `seat-${index}`;
    const value = seat.kind === "human" ? "human" : seat.bot;
    const select = h("select", {id: kindId, onchange: (e) => {
      const v = e.target.value;
      view.form.seats[index] = v === "human" ? {kind: "human"} : {kind: "bot", bot: v, strength: 3};
      render();
    }},
      h("option", {value: "human", selected: value === "human"}, t("a person (invite by link)")),
      g.bots.map((b) => h("option", {value: b, selected: value === b}, botLabel(b))));
    const strength = seat.kind === "bot" && SEARCH_BOTS.includes(seat.bot) ?
      h("label", {class: "strength"}, t("strength"), " ",
        h("select", {onchange: (e) => { seat.strength = Number(e.target.value); }},
          Object.entries(view.strengths).map(([level, seconds]) =>
            h("option", {value: level, selected: Number(level) === seat.strength},
              t("{level} ({seconds} s per move)", {level, seconds}))))) : null;
    const open = seat.kind === "human" && index > 0 ?
      h("label", {class: "open-seat"},
        h("input", {type: "checkbox", id: `open-${index}`, checked: !!seat.open,
                    onchange: (e) => { seat.open = e.target.checked; }}),
        " ", t("open to anyone in the lobby")) : null;
    return h("li", {class: "seat-row"},
      h("label", {for: kindId}, t("Seat {seat}", {seat: index})), select, strength, open);
  }

  function render() {
    if (!view.games) { replace(root, h("p", {}, t("Loading…"))); return; }
    const g = game();
    sessionStorage.setItem("kartentisch.form", JSON.stringify(view.form));
    const gameChoice = h("fieldset", {class: "games"},
      h("legend", {}, t("Game")),
      view.games.map((each) => h("label", {class: "game-choice"},
        h("input", {type: "radio", name: "game", value: each.name,
                    checked: each.name === view.form.game,
                    onchange: () => { view.form = freshForm(each); render(); }}),
        h("span", {class: "game-title"}, each.title),
        h("span", {class: "help"}, t(gameModule(each.name).blurb)))));
    const players = [];
    for (let n = g.min_players; n <= g.max_players; n++) players.push(n);
    const playerChoice = h("label", {class: "players"}, t("Players"), " ",
      h("select", {id: "players", onchange: (e) => {
        const keep = view.form.options;
        view.form = freshForm(g, Number(e.target.value));
        view.form.options = keep;
        render();
      }}, players.map((n) => h("option", {value: n, selected: n === view.form.players}, n))));
    const clock = h("label", {class: "clock-choice"}, t("Time per move"), " ",
      h("select", {id: "clock-limit", onchange: (e) => { view.form.clock = e.target.value ? Number(e.target.value) : null; }},
        CLOCKS.map((c) => h("option", {value: c === null ? "" : c, selected: c === view.form.clock},
          c === null ? t("no limit") : t("{seconds} s", {seconds: c})))));
    const hints = h("label", {class: "hints"},
      h("input", {type: "checkbox", id: "hints", checked: view.form.hints,
                  onchange: (e) => { view.form.hints = e.target.checked; }}),
      " ", t("Offer the hint button at this table"));
    const error = h("p", {class: "error", role: "alert", id: "create-error"});
    const form = h("form", {class: "new-table", onsubmit: (e) => { e.preventDefault(); create(error); }},
      h("h2", {}, t("New table")),
      gameChoice,
      h("div", {class: "row"}, playerChoice, clock, hints),
      h("fieldset", {class: "seats"}, h("legend", {}, t("Seats")),
        h("ol", {}, view.form.seats.map(seatRow))),
      h("details", {class: "options", open: true},
        h("summary", {}, t("Rules options")),
        g.options.map(optionControl)),
      error,
      h("button", {type: "submit", class: "primary", id: "create"}, t("Create table")));
    replace(root,
      h("section", {class: "lobby"},
        view.created ? createdPanel() : null,
        form,
        h("section", {class: "open"}, h("h2", {}, t("Open tables")), tablesBox)));
    renderTables();
  }

  function createdPanel() {
    const answer = view.created;
    const rows = answer.seats.filter((s) => s.kind === "human").map((s) => {
      if (s.open) {
        return h("li", {class: "link-row open-seat", dataset: {seat: s.seat}},
          h("span", {}, t("Seat {seat}", {seat: s.seat})), " ",
          t("open in the lobby: the first person to take it gets its link"));
      }
      const input = h("input", {type: "text", readonly: true, value: s.link, class: "link",
                                "aria-label": t("Link for seat {seat}", {seat: s.seat})});
      return h("li", {class: "link-row"},
        h("span", {}, t("Seat {seat}", {seat: s.seat})), input,
        h("button", {type: "button", onclick: async (e) => {
          const ok = await copyText(s.link, input);
          e.target.textContent = ok ? t("Copied") : t("Copy");
        }}, t("Copy")),
        h("a", {href: s.link, class: "button", dataset: {seat: s.seat}},
          t("Sit down here")));
    });
    return h("section", {class: "created", "aria-live": "polite"},
      h("h2", {}, t("Your table is ready")),
      h("p", {}, t("Send each person the link of their seat; whoever has a link plays that seat.")),
      h("ul", {class: "links"}, rows),
      h("p", {}, h("a", {href: answer.watch.link}, t("Watch link")), " · ",
        t("Watchers see what every player may see, no hidden card.")));
  }

  async function create(error) {
    const f = view.form;
    const options = {};
    const g = game();
    for (const o of g.options) {
      const v = f.options[o.name];
      options[o.name] = o.allowed === "true|false" ? v === "true" :
        o.allowed === "int" ? Number(v) : (/^\d+$/.test(v) ? Number(v) : v);
    }
    const seats = f.seats.map((s) => s.kind === "human" ? {kind: "human", ...(s.open ? {open: true} : {})} :
      {kind: "bot", bot: s.bot, ...(SEARCH_BOTS.includes(s.bot) ? {strength: s.strength} : {})});
    const body = {table: {game: f.game, players: f.players, options, seats, clock: f.clock},
                  hints: f.hints};
    const [status, data] = await api("/api/web/tables", body);
    if (status !== 201) {
      replace(error, data ? reasonText(data) : t("The server did not answer."));
      return;
    }
    rememberTable(data, body);
    view.created = data;
    render();
    root.querySelector(".created a.button")?.focus();
  }

  let tables = [];
  async function refreshTables() {
    const [status, data] = await api("/api/web/lobby");
    if (status === 200) { tables = data.tables; renderTables(); }
  }

  /** Claim a free seat of ``table`` on the server; the seat's link comes back to this page
   * alone, which sits down there (remembered like a table it created). */
  async function takeSeat(table, button) {
    button.disabled = true;
    const [status, data] = await api(`/api/web/tables/${encodeURIComponent(table.id)}/claim`, {});
    if (status === 201) {
      location.hash = `seat=${data.token}`;
      return;
    }
    const note = tablesBox.querySelector(`[data-table="${CSS.escape(table.id)}"] .error`);
    if (note) replace(note, data ? reasonText(data) : t("The server did not answer."));
    refreshTables();
  }

  function renderTables() {
    if (!tables.length) { replace(tablesBox, h("p", {}, t("No open table right now."))); return; }
    replace(tablesBox, h("ul", {class: "tables"}, tables.map((table) => {
      const free = table.open_seats || [];
      return h("li", {dataset: {table: table.id, open: free.length}},
        h("strong", {}, table.title), " · ",
        t("{players} players", {players: table.players}), " · ",
        t("move {move}", {move: table.move}), " · ",
        table.seats.map((s) => s.kind === "human" ?
          (s.open ? t("free seat") : s.connected ? t("person (here)") : t("person (away)")) :
          botLabel(s.bot)).join(", "), " ",
        free.length ? h("button", {type: "button", class: "primary take-seat",
                                   onclick: (e) => takeSeat(table, e.currentTarget)},
          t("Take a seat")) : null, " ",
        table.watch ? h("a", {href: `#watch=${table.watch}`, class: "button"}, t("Watch")) : null,
        h("p", {class: "error", role: "alert"}));
    })));
  }

  load();
  return view;
}


/** Keep what the creator needs later: the links (to invite from the table) and the request
 * (to play again). */
export function rememberTable(answer, request) {
  sessionStorage.setItem(`kartentisch.table.${answer.table}`,
                         JSON.stringify({answer, request}));
}

export function rememberedTable(tableId) {
  return JSON.parse(sessionStorage.getItem(`kartentisch.table.${tableId}`) || "null");
}
