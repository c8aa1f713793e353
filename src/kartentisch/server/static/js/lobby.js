// The lobby: choose a game, its players, rules options and seats; create the table, copy
// its links (or open a person's seat to anyone in the lobby); see the open tables, watch
// them or take a free seat.

import {reason, setParamHook, t} from "./i18n.js";
import {api, copyText, h, replace} from "./util.js";
import {gameModule} from "./games/index.js";
import {hostedTables, rememberHosting} from "./host.js";
import {checkName, myName, rememberName} from "./names.js";
import {teamName} from "./teams.js";

const SEARCH_BOTS = ["ismcts", "pimc"];
const CLOCKS = [null, 30, 60, 120, 300];

/** Words for a bot's name. */
export function botLabel(bot) {
  const names = {
    random: t("random bot (plays any legal move)"),
    heuristic: t("heuristic bot (fast, rule of thumb)"),
    ismcts: t("ismcts bot (searches, strong)"),
    pimc: t("pimc bot (searches, strong)"),
    learned: t("learned bot (fast, trained network)"),
    "first-legal": t("first-legal bot (always the first allowed move)"),
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
    return {game: game.name, players: count, options, seats, hints: true, clock: null,
            listed: false, watcherChat: false};
  }

  function game() { return view.games.find((g) => g.name === view.form.game); }

  /** A refusal of the new table in words: a rules option's name and value in it read as the
   * form shows them (its label, its value's words), not as the game's notation. */
  function reasonText(error) {
    const words = (view.words[view.form.game] || {}).options || [];
    setParamHook((name, value) => {
      if (name === "name") {
        const found = words.find((o) => o.name === value);
        return found && found.label ? t(found.label) : null;
      }
      if (name === "value" && typeof value === "string") {
        // the option this form set to ``value`` (one changed from its default first)
        const g = game();
        const set = words.filter((o) => o.words && o.words[value] &&
                                        view.form.options[o.name] === value);
        const changed = set.filter((o) => {
          const option = g && g.options.find((x) => x.name === o.name);
          return option && String(option.default) !== value;
        });
        const found = changed[0] || set[0];
        return found ? t(found.words[value]) : null;
      }
      return null;
    });
    try {
      return reason(error);
    } finally {
      setParamHook(null);
    }
  }

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
    const open = seat.kind === "human" && index > 0 && view.form.listed ?
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
    const nameInput = h("input", {type: "text", id: "my-name", value: view.name ?? myName(),
                                  maxlength: 64, autocomplete: "nickname", spellcheck: "false",
                                  oninput: (e) => { view.name = e.target.value; }});
    const who = h("div", {class: "row night-who"},
      h("label", {for: "my-name"}, t("Your name")), nameInput,
      h("span", {class: "help"}, t("You sit at the first person's seat; everyone at the table sees this name.")));
    const listing = (value, id, label, help) => h("label", {class: "listing-choice"},
      h("input", {type: "radio", name: "listed", id, value, checked: view.form.listed === (value === "open"),
                  onchange: () => {
                    view.form.listed = value === "open";
                    if (!view.form.listed) for (const s of view.form.seats) delete s.open;
                    render();
                  }}),
      " ", h("span", {}, label), " ", h("span", {class: "help"}, help));
    const privacy = h("fieldset", {class: "listing"},
      h("legend", {}, t("Who may come to this table")),
      listing("private", "listed-private", t("Private (link only)"),
        t("Only people you send a link to can sit down or watch.")),
      listing("open", "listed-open", t("Open (listed in the lobby)"),
        t("Anyone in the lobby can watch and take a free seat.")),
      h("label", {class: "watcher-chat"},
        h("input", {type: "checkbox", id: "watcher-chat", checked: !!view.form.watcherChat,
                    onchange: (e) => { view.form.watcherChat = e.target.checked; }}),
        " ", t("Watchers may chat")));
    const form = h("form", {class: "new-table", onsubmit: (e) => { e.preventDefault(); create(error); }},
      h("h2", {}, t("New table")),
      who,
      gameChoice,
      h("div", {class: "row"}, playerChoice, clock, hints),
      privacy,
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
        hostedPanel(),
        h("section", {class: "open"}, h("h2", {}, t("Open tables")), tablesBox)));
    renderTables();
  }

  /** The tables this browser hosts (their host tokens are kept here): open each as host. */
  function hostedPanel() {
    const hosted = Object.entries(hostedTables()).slice(0, 8);
    if (!hosted.length) return null;
    return h("section", {class: "hosted", id: "hosted"},
      h("h2", {}, t("Your tables")),
      h("ul", {class: "tables"}, hosted.map(([table, entry]) => h("li", {dataset: {table}},
        h("strong", {}, entry.title || entry.game), " · ",
        new Date(entry.at || 0).toLocaleString(), " ",
        h("a", {class: "button", href: `#host=${entry.host}`, dataset: {host: table}},
          t("Open as host"))))));
  }

  /** The links of the table just made, read from the host links route (the same the host
   * panel of the table shows in any tab). */
  async function loadCreated() {
    const [status, data] = await api("/api/web/host/links", {host: view.created.host});
    if (status === 200) view.createdLinks = data;
    render();
    root.querySelector(".created a.button")?.focus();
  }

  function createdPanel() {
    const answer = view.createdLinks;
    if (!answer || answer.table !== view.created.table) {
      return h("section", {class: "creating", "aria-busy": "true"}, h("p", {}, t("Loading…")));
    }
    const rows = answer.seats.filter((s) => s.kind === "human").map((s) => {
      if (s.open) {
        return h("li", {class: "link-row open-seat", dataset: {seat: s.seat}},
          h("span", {}, t("Seat {seat}", {seat: s.seat})), " ",
          t("open in the lobby: the first person to take it gets its link"));
      }
      const label = s.name || t("Seat {seat}", {seat: s.seat});
      const input = h("input", {type: "text", readonly: true, value: s.link, class: "link",
                                "aria-label": t("Link for {name}", {name: label})});
      return h("li", {class: "link-row"},
        h("span", {}, label), input,
        h("button", {type: "button", onclick: async (e) => {
          const ok = await copyText(s.link, input);
          e.target.textContent = ok ? t("Copied") : t("Copy");
        }}, t("Copy")),
        h("a", {href: s.link, class: "button", dataset: {seat: s.seat}},
          t("Sit down here")));
    });
    return h("section", {class: "created", "aria-live": "polite", dataset: {table: answer.table}},
      h("h2", {}, t("Your table is ready")),
      h("p", {}, t("Send each person the link of their seat; whoever has a link plays that seat.")),
      h("ul", {class: "links"}, rows),
      h("p", {}, h("a", {href: answer.watch.link}, t("Watch link")), " · ",
        t("Watchers see what every player may see, no hidden card.")),
      h("p", {}, h("a", {href: `#host=${view.created.host}`, id: "host-link"},
        t("Open the host's page")), " · ",
        t("It shows these links again in any tab and lets you seat bots or close the table.")));
  }

  async function create(error) {
    const f = view.form;
    const [name, why] = checkName(view.name ?? myName());
    if (!name) {
      replace(error, why);
      root.querySelector("#my-name")?.focus();
      return;
    }
    rememberName(name);
    view.name = name;
    const options = {};
    const g = game();
    for (const o of g.options) {
      const v = f.options[o.name];
      options[o.name] = o.allowed === "true|false" ? v === "true" :
        o.allowed === "int" ? Number(v) : (/^\d+$/.test(v) ? Number(v) : v);
    }
    const mine = f.seats.findIndex((s) => s.kind === "human" && !s.open);
    const seats = f.seats.map((s, i) => s.kind === "human" ?
      {kind: "human", ...(s.open && f.listed ? {open: true} : {}), ...(i === mine ? {name} : {})} :
      {kind: "bot", bot: s.bot, ...(SEARCH_BOTS.includes(s.bot) ? {strength: s.strength} : {})});
    const body = {table: {game: f.game, players: f.players, options, seats, clock: f.clock,
                          listed: !!f.listed, watcher_chat: !!f.watcherChat},
                  hints: f.hints};
    const [status, data] = await api("/api/web/tables", body);
    if (status !== 201) {
      replace(error, data ? reasonText(data) : t("The server did not answer."));
      return;
    }
    rememberTable(data, body);
    rememberHosting(data, {game: f.game, title: g.title, mine: mine < 0 ? null : mine});
    view.created = {table: data.table, host: data.host.token};
    view.createdLinks = null;
    render();
    loadCreated();
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

  /** Who sits at a listed table (a free seat said as such); in a team game by team, so a
   * person taking a free seat knows whose partner they become. */
  function seatsText(table) {
    const one = (s) => s.kind === "human" ?
      (s.open ? t("free seat") : s.name ? `${s.name} (${s.connected ? t("here") : t("away")})` :
        s.connected ? t("person (here)") : t("person (away)")) :
      botLabel(s.bot);
    if (!table.teams || !table.teams.length) return table.seats.map(one).join(", ");
    return table.teams.map((seats, i) =>
      `${teamName(i)}: ${seats.map((n) => one(table.seats[n])).join(", ")}`).join("; ");
  }

  function renderTables() {
    if (!tables.length) { replace(tablesBox, h("p", {}, t("No open table right now."))); return; }
    replace(tablesBox, h("ul", {class: "tables"}, tables.map((table) => {
      const free = table.open_seats || [];
      return h("li", {dataset: {table: table.id, open: free.length}},
        h("strong", {}, table.title), " · ",
        t("{players} players", {players: table.players}), " · ",
        t("move {move}", {move: table.move}), " · ",
        seatsText(table), " ",
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
