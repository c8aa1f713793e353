// Krass Kariert at the table: the hand in its fixed order (never sorted), windows of
// neighbouring cards to play, the X value when it matters, gaps to insert a drawn card or a
// reserve card, reserves, chips, the round so far and what must be beaten.

import {backSvg, kkSvg, spoken} from "../cards.js";
import {N} from "../i18n.js";
import {h} from "../util.js";

const KINDS = ["single", "run2", "pair", "run3", "triple"];
const COMBO = {
  single: N("single {high}"), run2: N("2-run up to {high}"), pair: N("pair of {high}s"),
  run3: N("3-run up to {high}"), triple: N("triple of {high}s"),
};
const PARAM_COMBO = {
  single: N("a single {high}"), run2: N("a 2-run up to {high}"), pair: N("a pair of {high}s"),
  run3: N("a 3-run up to {high}"), triple: N("a triple of {high}s"),
};

let sel = {window: null, reserve: null};

/** A legal move's notation as data. */
export function parseMove(text) {
  let m = /^(\d+)(?:-(\d+))?((?:x\d+)*)$/.exec(text);
  if (m) {
    const start = Number(m[1]) - 1;
    const end = m[2] ? Number(m[2]) - 1 : start;
    const xs = (m[3].match(/\d+/g) || []).map(Number);
    return {type: "play", start, end, xs};
  }
  m = /^r(\d)@(\d+)$/.exec(text);
  if (m) return {type: "reserve", reserve: Number(m[1]) - 1, position: Number(m[2]) - 1};
  m = /^@(\d+)$/.exec(text);
  if (m) return {type: "insert", position: Number(m[1]) - 1};
  if (text === "concede") return {type: "concede"};
  return {type: "other"};
}

function strengthWords(value, ui) {
  if (value < 0) return ui.t("nothing");
  return ui.t(COMBO[KINDS[Math.floor(value / 16)]], {high: value % 16});
}

function cardLabel(card, ui) {
  if (card === "N") return ui.t("Nachzieh");
  if (card === "S") return ui.t("Stopp");
  return card;
}

function windowText(start, end) {
  return end > start ? `${start + 1}-${end + 1}` : `${start + 1}`;
}

function describeMove(text, ui) {
  const m = parseMove(text);
  if (m.type === "play") {
    const base = m.end > m.start ?
      ui.t("play positions {first} to {last}", {first: m.start + 1, last: m.end + 1}) :
      ui.t("play position {position}", {position: m.start + 1});
    return m.xs.length ? `${base} (${ui.t("X as {values}", {values: m.xs.join(", ")})})` : base;
  }
  if (m.type === "reserve") {
    return ui.t("reserve card {n} to position {position}", {n: m.reserve + 1, position: m.position + 1});
  }
  if (m.type === "insert") return ui.t("insert the drawn card at position {position}", {position: m.position + 1});
  if (m.type === "concede") return ui.t("give up the deal");
  return text;
}

function card(name, attrs = {}, ui) {
  return h("span", {class: "card kk", ...attrs}, kkSvg(name),
    h("span", {class: "sr-only"}, cardLabel(name, ui)));
}

function back(ui, attrs = {}) {
  return h("span", {class: "card back", ...attrs}, backSvg(), h("span", {class: "sr-only"}, ui.t("hidden card")));
}

/** The last completed round, read from the events: its acts and who won it. */
function lastRound(events) {
  let acts = [];
  let last = null;
  for (const ev of events || []) {
    if (ev.kind === "round_start" || ev.kind === "deal_start") acts = [];
    else if (["combination", "stopp", "nachzieh", "reserve"].includes(ev.kind)) acts.push(ev);
    else if (ev.kind === "round_won") { last = {acts, winner: ev.seat}; acts = []; }
  }
  return last;
}

function actLine(act, ui, attrs = {}) {
  let what;
  if (act.kind === "combination" || act.kind === "stopp" || act.kind === "nachzieh") {
    const cards = act.cards || (act.kind === "stopp" ? ["S"] : act.kind === "nachzieh" ? ["N"] : []);
    const xs = act.x_values || [];
    what = h("span", {class: "cards small"}, cards.map((c) => card(c, {}, ui)),
      xs.length ? h("span", {class: "xval"}, ui.t("X as {values}", {values: xs.join(", ")})) : null);
  } else {
    const shown = act.cards ? act.cards[0] : act.card;
    what = h("span", {class: "act-note"}, ui.t("takes reserve card {card} into the hand at position {position}",
                                                {card: cardLabel(shown, ui), position: act.position + 1}));
  }
  return h("li", attrs, h("span", {class: "who"}, ui.name(act.seat)), what);
}

/** What must be beaten: the round so far (the newest act arriving from its seat), or, before
 * the next round's first play, the last round dimmed with who won it. */
function centre(obs, view, ui) {
  const acts = obs.round.map((act, i) => actLine(act, ui, i === obs.round.length - 1 ?
    {dataset: {arrive: act.seat, arriveKey: `${obs.deal}-${obs.rounds}-${i}`}} : {}));
  const parts = [h("h2", {}, ui.t("This round"))];
  if (acts.length) parts.push(h("ol", {class: "acts"}, acts));
  if (obs.phase === "play") {
    parts.push(h("p", {class: "to-beat"}, obs.best < 0 ?
      ui.t("{name} leads: any combination.", {name: ui.name(obs.leader)}) :
      ui.t("To beat: {best}", {best: strengthWords(obs.best, ui)})));
  } else if (!acts.length) {
    parts.push(h("p", {}, ui.t("Nothing played yet.")));
  }
  const last = !acts.length && lastRound(ui.events);
  const played = last ? last.acts.filter((ev) => ev.kind !== "reserve") : [];
  if (played.length) {
    parts.push(h("section", {class: "last-round", "aria-label": ui.t("Last round")},
      h("h3", {}, ui.t("Last round, won by {name}", {name: ui.name(last.winner)})),
      h("ol", {class: "acts"}, played.map((ev) => actLine({...ev.data, seat: ev.seat, kind: ev.kind}, ui)))));
  }
  return h("section", {class: "round", "aria-label": ui.t("This round")}, parts);
}

function revealed(view, s) {
  const hands = view.reveal && view.reveal.hands;
  return hands && hands[s] ? hands[s].map((c) => c.card) : null;
}

function seatCards(obs, view, s, ui) {
  const open = revealed(view, s);
  const pub = obs.public_hands[s];
  const cards = open ? open.map((c, i) => card(c, {title: String(i + 1), dataset: {card: c}}, ui)) :
    pub.map((c, i) => c === null ? back(ui, {title: String(i + 1)}) :
      card(c, {title: String(i + 1), dataset: {card: c}}, ui));
  return [
    h("div", {class: "cards small hand-row", role: "group",
              "aria-label": ui.t("hand of {name}", {name: ui.name(s)})}, cards),
    h("div", {class: "reserves"}, h("span", {class: "help"}, ui.t("Reserve")), " ",
      obs.reserves[s].length ? obs.reserves[s].map((c) => card(c, {}, ui)) : "–"),
  ];
}

function board(view, ui) {
  const obs = view.obs;
  const moves = view.legal.map((m) => ({...m, ...parseMove(m.text)}));
  const me = view.seat;
  const hand = obs.hand || [];
  const acting = view.acting;
  const pending = obs.pending;
  const inserting = acting && moves.some((m) => m.type === "insert");
  const hint = view.hint ? parseMove(view.hint.text) : null;
  const own = me !== null && me !== undefined && !obs.open;
  return {
    info: h("p", {class: "kk-info"},
      ui.t("Deal {deal} · round {round}", {deal: obs.deal + 1, round: obs.rounds + 1}), " · ",
      ui.tn("Draw pile: {n} card", "Draw pile: {n} cards", obs.draw_size), " · ",
      ui.tn("Discard pile: {n} card", "Discard pile: {n} cards", obs.discard.length)),
    seat: (s) => seatCards(obs, view, s, ui),
    centre: centre(obs, view, ui),
    mine: own ? myHand(obs, hand, moves, acting, pending, inserting, hint, ui) : null,
  };
}

function myHand(obs, hand, moves, acting, pending, inserting, hint, ui) {
  const me = obs.seat;
  const plays = moves.filter((m) => m.type === "play");
  const w = sel.window;
  const slotsFor = inserting ? "insert" : sel.reserve !== null ? "reserve" : null;
  const items = [];
  const slot = (k) => {
    const text = slotsFor === "insert" ? `@${k + 1}` : `r${sel.reserve + 1}@${k + 1}`;
    const ok = moves.some((m) => m.text === text);
    const hinted = hint && (hint.type === "insert" || hint.type === "reserve") && hint.position === k;
    return h("button", {type: "button", class: `slot${ok ? " legal" : ""}${hinted ? " hinted" : ""}`,
                        dataset: {slot: k + 1, key: `slot-${k}`},
                        onclick: () => ui.attempt(text)}, h("span", {"aria-hidden": "true"}, "▾"),
      spoken(ui.t("Put the card at position {position}", {position: k + 1})));
  };
  hand.forEach((c, i) => {
    if (slotsFor) items.push(slot(i));
    const inWindow = w && i >= w[0] && i <= w[1];
    const legal = acting && plays.some((m) => i >= m.start && i <= m.end);
    const hinted = hint && hint.type === "play" && i >= hint.start && i <= hint.end;
    const seen = obs.public_hands[me][i] !== null;
    items.push(h("button", {type: "button",
      class: `card kk${legal ? " legal" : ""}${inWindow ? " selected" : ""}${seen ? " seen" : ""}${hinted ? " hinted" : ""}`,
      dataset: {index: i + 1, card: c, key: `card-${i}`},
      "aria-pressed": inWindow ? "true" : "false",
      onclick: () => clickCard(i, acting, inserting, ui)},
    kkSvg(c), h("span", {class: "pos", "aria-hidden": "true"}, i + 1),
    spoken(ui.t("position {position}: {card}", {position: i + 1, card: cardLabel(c, ui)}) +
      (seen ? ` (${ui.t("seen by the others")})` : ""))));
  });
  if (slotsFor) items.push(slot(hand.length));

  const controls = [];
  const prompt = [];  // above the hand: what the gaps are for
  if (pending !== null && pending !== undefined) {
    prompt.push(h("p", {class: "pending"}, ui.t("You drew"), " ", card(pending, {}, ui), " ",
      ui.t("Click the gap where it goes.")));
  }
  if (sel.reserve !== null) {
    prompt.push(h("p", {class: "pending"},
      ui.t("Click the gap where reserve card {n} goes.", {n: sel.reserve + 1})));
  }
  if (w) {
    const options = plays.filter((m) => m.start === w[0] && m.end === w[1]);
    if (options.length > 1) {
      controls.push(h("div", {class: "x-choice", role: "group", "aria-label": ui.t("Which value should the X card stand for?")},
        h("span", {}, ui.t("Which value should the X card stand for?")),
        options.map((m) => h("button", {type: "button", class: "legal", dataset: {move: m.text, key: `x-${m.text}`},
                                         onclick: () => ui.play(m.id)}, m.xs.join(", ")))));
    } else {
      const text = options.length ? options[0].text : windowText(w[0], w[1]);
      controls.push(h("button", {type: "button", class: `primary${options.length ? " legal" : " unavailable"}`, id: "play",
                                 dataset: {move: text, key: "play"}, onclick: () => ui.attempt(text)},
        ui.t("Play {cards}", {cards: hand.slice(w[0], w[1] + 1).map((c) => cardLabel(c, ui)).join(" ")}),
        options.length ? null : h("span", {class: "sr-only"}, ` (${ui.t("not allowed now")})`)));
    }
    controls.push(h("button", {type: "button", class: "quiet", dataset: {key: "clear"},
                               onclick: () => { sel.window = null; ui.rerender(); }}, ui.t("Clear")));
  }
  if (acting && !inserting) {
    const concede = moves.some((m) => m.type === "concede");
    const hinted = hint && hint.type === "concede";
    controls.push(h("button", {type: "button", class: `quiet${concede ? " legal" : " unavailable"}${hinted ? " hinted" : ""}`,
                               id: "concede",
                               dataset: {key: "concede"}, onclick: () => ui.attempt("concede")},
      ui.t("Give up the deal"), concede ? null : h("span", {class: "sr-only"}, ` (${ui.t("not allowed now")})`)));
  }

  const reserves = obs.reserves[me] || [];
  return h("section", {class: "mine", "aria-label": ui.t("Your hand")},
    h("h2", {class: "sr-only"}, ui.t("Your hand")),
    prompt,
    h("div", {class: "hand kk-hand"}, items.length ? items : h("p", {}, ui.t("(no cards)"))),
    h("div", {class: "reserves mine-reserves"}, h("span", {}, ui.t("Your reserve")), " ",
      reserves.length ? reserves.map((c, r) => {
        const legal = acting && moves.some((m) => m.type === "reserve" && m.reserve === r);
        const hinted = hint && hint.type === "reserve" && hint.reserve === r;
        return h("button", {type: "button",
          class: `card kk${legal ? " legal" : ""}${sel.reserve === r ? " selected" : ""}${hinted ? " hinted" : ""}`,
          dataset: {reserve: r + 1, key: `reserve-${r}`},
          onclick: () => clickReserve(r, acting, moves, ui)}, kkSvg(c),
          spoken(ui.t("reserve card {n}: {card}", {n: r + 1, card: cardLabel(c, ui)})));
      }) : "–",
      h("span", {class: "help"}, ui.t("(fixed order; marked cards were seen by the others)"))),
    h("div", {class: "controls"}, controls));
}

function clickCard(i, acting, inserting, ui) {
  if (!acting) { ui.attempt(String(i + 1)); return; }
  if (inserting) { ui.say(ui.t("Click the gap where it goes.")); return; }
  sel.reserve = null;
  const w = sel.window;
  if (!w) sel.window = [i, i];
  else if (i === w[0] - 1 && w[1] - w[0] < 2) sel.window = [i, w[1]];
  else if (i === w[1] + 1 && w[1] - w[0] < 2) sel.window = [w[0], i];
  else if (w[0] === w[1] && i === w[0]) sel.window = null;
  else if (i === w[0]) sel.window = [w[0] + 1, w[1]];
  else if (i === w[1]) sel.window = [w[0], w[1] - 1];
  else sel.window = [i, i];
  ui.rerender();
}

function clickReserve(r, acting, moves, ui) {
  if (!acting || !moves.some((m) => m.type === "reserve" && m.reserve === r)) {
    ui.attempt(`r${r + 1}@1`);
    return;
  }
  sel.window = null;
  sel.reserve = sel.reserve === r ? null : r;
  ui.rerender();
}

function event(ev, ui) {
  const d = ev.data;
  const name = ui.name(ev.seat);
  switch (ev.kind) {
    case "deal_start": return ui.t("── Deal {deal} begins ──", {deal: d.deal});
    case "round_start": return ui.t("Round {round}: {name} leads.", {round: d.round, name});
    case "combination": {
      const words = ui.t(COMBO[d.kind], {high: d.high});
      const xs = d.x_values.length ? `, ${ui.t("X as {values}", {values: d.x_values.join(", ")})}` : "";
      return ui.t("{name} plays {combination}.", {name, combination: `${words} (${d.cards.join(" ")}${xs})`});
    }
    case "stopp": return ui.t("{name} plays Stopp: the round ends at once.", {name});
    case "nachzieh": return ui.t("{name} plays Nachzieh.", {name});
    case "reserve":
      return ui.t("{name} takes reserve card {card} into the hand at position {position}.",
                  {name, card: d.card, position: d.position + 1});
    case "draw":
      return d.card !== undefined ? ui.t("You draw {card} from the draw pile.", {card: d.card}) :
        ui.t("{name} draws a card from the draw pile.", {name});
    case "insert":
      return d.card !== undefined ?
        ui.t("You insert {card} at position {position}.", {card: d.card, position: d.position + 1}) :
        ui.t("{name} inserts the drawn card at position {position}.", {name, position: d.position + 1});
    case "round_won": {
      const count = 3 * (d.nachzieh || 0);
      return count ? ui.t("{name} wins the round and draws {count} cards.", {name, count}) :
        ui.t("{name} wins the round.", {name});
    }
    case "out": return ui.t("{name} has no cards left and is out of this deal.", {name});
    case "concede": return ui.t("{name} concedes: the deal ends.", {name});
    case "chip_lost":
      return ui.tn("{name} gives up a chip ({chips} chip left).",
                   "{name} gives up a chip ({chips} chips left).", d.chips, {name, chips: d.chips});
    case "no_chip": return ui.t("{name} has no chip left to give.", {name});
    case "game_over": {
      const names = d.losers.map((s) => ui.name(s)).join(", ");
      return ui.tn("Game over: {names} loses.", "Game over: {names} lose.", d.losers.length, {names});
    }
    default: return null;
  }
}

function playerInfo(obs, seat, ui) {
  const chips = ui.tn("{n} chip", "{n} chips", obs.chips[seat]);
  const cards = obs.in_deal[seat] || obs.phase === "over" ?
    ui.tn("{n} card", "{n} cards", obs.public_hands[seat].length) : ui.t("out of this deal");
  return `${chips} · ${cards}`;
}

function summary(obs, returns, reveal, ui) {
  const losers = obs.losers;
  return h("div", {class: "summary"},
    h("p", {class: "verdict"}, losers.includes(obs.seat) ? ui.t("Game over: you lose.") :
      obs.seat !== null && obs.seat !== undefined ? ui.t("You win: somebody else ran out of chips first.") :
        ui.tn("Game over: {names} loses.", "Game over: {names} lose.", losers.length,
              {names: losers.map((s) => ui.name(s)).join(", ")})),
    h("table", {class: "scores"},
      h("thead", {}, h("tr", {}, h("th", {}, ui.t("Player")), h("th", {}, ui.t("Chips")), h("th", {}, ui.t("Result")))),
      h("tbody", {}, obs.chips.map((c, s) => h("tr", {class: losers.includes(s) ? "lost" : "won"},
        h("td", {}, ui.name(s)), h("td", {}, String(c)),
        h("td", {}, losers.includes(s) ? ui.t("lost") : ui.t("won")))))));
}

function param(name, value, ui) {
  if ((name === "action" || name === "text") && typeof value === "string") return describeMove(value, ui);
  if (name === "combination" || name === "best") {
    if (value === null) return ui.t("nothing");
    if (typeof value === "object" && PARAM_COMBO[value.kind]) {
      return ui.t(PARAM_COMBO[value.kind], {high: value.high});
    }
  }
  return null;
}

export default {
  name: "krass-kariert",
  blurb: N("Beat the combination on the table with neighbouring cards from a hand you may never sort; whoever runs out of chips loses."),
  reset() { sel = {window: null, reserve: null}; },
  board, event, playerInfo, summary, param, describeMove,
  out(obs, seat) { return obs.phase !== "over" && !obs.in_deal[seat]; },
};
