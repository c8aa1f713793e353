// Casino at the table: loose cards and builds (value, owner, single or a call), a capture or
// build chosen by clicking a hand card and table items, the captured piles and sweeps, and
// the points of the pack.

import {backSvg, casinoSvg, casinoWords, spoken} from "../cards.js";
import {N} from "../i18n.js";
import {h} from "../util.js";
import {sentenceCase} from "../words.js";

const ITEMS = {
  cards: N("most cards"), spades: N("most spades"), big_casino: N("big casino (10 of diamonds)"),
  little_casino: N("little casino (2 of spades)"), aces: N("aces"), sweeps: N("sweeps"),
  total: N("pack total"),
};

let sel = {card: null, items: []};

/** A legal move's notation as data: card, kind, items (card names and "[v]"), value. */
export function parseMove(text) {
  let m = /^(\S+) -$/.exec(text);
  if (m) return {card: m[1], kind: "trail", items: [], value: 0};
  m = /^(\S+) ([x+]) ?(.*?)(?: = (\d+))?$/.exec(text);
  if (!m) return {card: null, kind: "other", items: [], value: 0};
  const items = m[3].trim() ? m[3].trim().split(/\s+/) : [];
  const kind = m[2] === "x" ? "capture" : items.length === 1 && /^\[\d+\]$/.test(items[0]) &&
    Number(m[4]) !== Number(items[0].slice(1, -1)) ? "raise" : "build";
  return {card: m[1], kind, items, value: m[4] ? Number(m[4]) : 0};
}

function sameItems(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** A card or a table item ("[8]": the build of 8) in the reader's words. */
function itemWords(item, ui) {
  const m = /^\[(\d+)\]$/.exec(item);
  return m ? ui.t("the build of {value}", {value: m[1]}) : casinoWords(item, ui.t);
}

function words(list, ui) {
  return list.map((c) => itemWords(c, ui)).join(", ");
}

function describeMove(text, ui) {
  const m = parseMove(text);
  const items = words(m.items, ui);
  const card = m.card ? casinoWords(m.card, ui.t) : "";
  if (m.kind === "trail") return ui.t("trail {card}", {card});
  if (m.kind === "capture") return ui.t("{card} takes {items}", {card, items});
  if (m.kind === "raise") return ui.t("{card} raises {items} to {value}", {card, items, value: m.value});
  if (m.kind === "build") return ui.t("{card} builds {value} with {items}", {card, items, value: m.value});
  return text;
}

function sideOf(obs, seat) {
  return obs.scores.length === obs.players ? seat : seat % 2;
}

function card(name, ui, attrs = {}) {
  return h("span", {class: "card casino", dataset: {card: name}, ...attrs}, casinoSvg(name),
    h("span", {class: "sr-only"}, casinoWords(name, ui.t)));
}

/** The latest capture, read from the events: who took what with which card. */
function lastCapture(events) {
  let last = null;
  (events || []).forEach((ev, i) => {
    if (ev.kind === "capture") last = {seat: ev.seat, card: ev.data.card, taken: ev.data.taken, sweep: ev.data.sweep, i};
    else if (ev.kind === "table_taken") last = {seat: ev.seat, card: null, taken: ev.data.cards, sweep: false, i};
    else if (ev.kind === "pack_start") last = null;
  });
  return last;
}

function lastTrail(events) {
  const found = {};
  for (const ev of events || []) {
    if (ev.kind === "trail") found[ev.data.card] = ev.seat;
    if (ev.kind === "table") for (const c of ev.data.cards) delete found[c];
  }
  return found;
}

function board(view, ui) {
  const obs = view.obs;
  const moves = view.legal.map((m) => ({...m, ...parseMove(m.text)}));
  const acting = view.acting;
  const mine = sel.card ? moves.filter((m) => m.card === sel.card) : [];
  const usable = new Set(mine.flatMap((m) => m.items));
  const hint = view.hint ? parseMove(view.hint.text) : null;
  const hinted = (item) => hint && hint.items.includes(item) ? " hinted" : "";
  const trailedBy = lastTrail(ui.events);

  const seat = (s) => {
    const revealed = view.reveal && view.reveal.hands ? view.reveal.hands[s] : null;
    const hand = obs.hands ? obs.hands[s] : revealed;
    return [
      h("div", {class: "cards small hand-row", role: "group", "aria-label": ui.t("hand of {name}", {name: ui.name(s)})},
        hand ? hand.map((c) => card(c, ui)) :
          Array.from({length: obs.hand_sizes[s]}, () => h("span", {class: "card back"}, backSvg(),
            h("span", {class: "sr-only"}, ui.t("hidden card"))))),
      h("p", {class: "pile"}, pileText(obs, s, ui)),
    ];
  };

  // the table, and the latest capture beside it
  const loose = obs.table.loose.map((c) => {
    const chosen = sel.items.includes(c);
    const legal = acting && sel.card && usable.has(c);
    const from = trailedBy[c];
    return h("button", {type: "button", class: `card casino${legal ? " legal" : ""}${chosen ? " selected" : ""}${hinted(c)}`,
      dataset: {item: c, key: `item-${c}`, ...(from !== undefined ? {arrive: from, arriveKey: `loose-${c}`} : {})},
      "aria-pressed": chosen ? "true" : "false",
      onclick: () => toggleItem(c, acting, ui)}, casinoSvg(c),
      spoken(ui.t("loose card {card}", {card: casinoWords(c, ui.t)})));
  });
  const builds = obs.table.builds.map((b) => {
    const key = `[${b.value}]`;
    const chosen = sel.items.includes(key);
    const legal = acting && sel.card && usable.has(key);
    const label = b.multiple ? ui.t("call of {value}s", {value: b.value}) : ui.t("build of {value}", {value: b.value});
    return h("button", {type: "button", class: `build${legal ? " legal" : ""}${chosen ? " selected" : ""}${hinted(key)}`,
      dataset: {item: key, key: `item-${key}`, arrive: b.owner, arriveKey: `build-${b.cards.join("")}`},
      "aria-pressed": chosen ? "true" : "false",
      onclick: () => toggleItem(key, acting, ui)},
      h("span", {class: "build-head"}, label),
      h("span", {class: "cards small"}, b.cards.map((c) => card(c, ui))),
      h("span", {class: "build-owner"}, ui.t("owner: {name}", {name: ui.name(b.owner)})));
  });
  const capture = lastCapture(ui.events);
  const centre = h("section", {class: "casino-table", "aria-label": ui.t("Table")},
    h("h2", {}, ui.t("Table")),
    loose.length || builds.length ? h("div", {class: "table-items"}, loose, builds) :
      h("p", {}, ui.t("The table is empty.")),
    capture ? h("section", {class: "last-capture", "aria-label": ui.t("Last capture"),
                            dataset: {arrive: capture.seat, arriveKey: `capture-${capture.i}`}},
      h("h3", {}, capture.card ?
        ui.t("{name} took with {card}:", {name: ui.name(capture.seat), card: casinoWords(capture.card, ui.t)}) :
        ui.t("{name} took the rest of the table:", {name: ui.name(capture.seat)}),
        capture.sweep ? ` ${ui.t("A sweep!")}` : ""),
      h("div", {class: "cards small"}, (capture.card ? [capture.card] : []).concat(capture.taken).map((c) => card(c, ui)))) : null);

  // my hand and what the selection can do
  let own = null;
  if (view.seat !== null && view.seat !== undefined && !obs.open) {
    const hand = obs.hand || [];
    const handButtons = hand.map((c) => {
      const legal = acting && moves.some((m) => m.card === c);
      const chosen = sel.card === c;
      return h("button", {type: "button",
        class: `card casino${legal ? " legal" : ""}${chosen ? " selected" : ""}${hint && hint.card === c ? " hinted" : ""}`,
        dataset: {card: c, key: `hand-${c}`}, "aria-pressed": chosen ? "true" : "false",
        onclick: () => pickCard(c, acting, ui)}, casinoSvg(c),
        spoken(ui.t("your card {card}", {card: casinoWords(c, ui.t)})));
    });
    const controls = [];
    if (sel.card) {
      const matching = mine.filter((m) => sameItems(m.items, sel.items));
      for (const m of matching) {
        const label = m.kind === "trail" ? ui.t("Trail") : m.kind === "capture" ? ui.t("Capture") :
          m.kind === "raise" ? ui.t("Raise to {value}", {value: m.value}) : ui.t("Build {value}", {value: m.value});
        controls.push(h("button", {type: "button", class: "primary legal", dataset: {move: m.text, key: `do-${m.text}`},
                                   onclick: () => ui.play(m.id)}, label));
      }
      if (!matching.length) {
        if (sel.items.length) {
          const text = `${sel.card} x ${sel.items.join(" ")}`;
          controls.push(h("button", {type: "button", class: "unavailable",
                                     dataset: {move: text, key: "try-capture"}, id: "try-capture",
                                     onclick: () => ui.attempt(text)}, ui.t("Capture"),
            h("span", {class: "sr-only"}, ` (${ui.t("not allowed now")})`)));
        } else {
          const text = `${sel.card} -`;
          controls.push(h("button", {type: "button", class: "unavailable",
                                     dataset: {move: text, key: "try-trail"}, id: "try-trail",
                                     onclick: () => ui.attempt(text)}, ui.t("Trail"),
            h("span", {class: "sr-only"}, ` (${ui.t("not allowed now")})`)));
        }
      }
      controls.push(h("button", {type: "button", class: "quiet", dataset: {key: "clear"},
                                 onclick: () => { sel = {card: null, items: []}; ui.rerender(); }}, ui.t("Clear")));
    } else if (acting) {
      controls.push(h("p", {class: "help"}, ui.t("Choose a card from your hand, then the table items it takes or builds with.")));
    }
    own = h("section", {class: "mine", "aria-label": ui.t("Your hand")},
      h("h2", {class: "sr-only"}, ui.t("Your hand")),
      h("div", {class: "hand"}, handButtons.length ? handButtons : h("p", {}, ui.t("(no cards)"))),
      h("div", {class: "controls"}, controls));
  }

  return {
    info: h("p", {class: "casino-info"},
      ui.t("Pack {pack}", {pack: obs.pack + 1}), " · ",
      ui.tn("{n} card left to deal", "{n} cards left to deal", obs.deck_size), " · ",
      ui.t("Dealer: {name}", {name: ui.name(obs.dealer)})),
    seat, centre, mine: own, below: scoreTable(obs, ui),
  };
}

function pileText(obs, seat, ui) {
  const pile = obs.captured[seat];
  const spades = pile.filter((c) => c.endsWith("s")).length;
  const text = [ui.tn("{n} card captured", "{n} cards captured", pile.length),
    ui.tn("{n} spade", "{n} spades", spades)];
  if (obs.sweeps[seat]) text.push(ui.tn("{n} sweep", "{n} sweeps", obs.sweeps[seat]));
  if (pile.includes("Td")) text.push(ui.t("big casino"));
  if (pile.includes("2s")) text.push(ui.t("little casino"));
  return text.join(" · ");
}

function scoreTable(obs, ui) {
  const sides = obs.scores.length;
  const sideName = (i) => sides === obs.players ? ui.name(i) :
    [ui.name(i), ui.name(i + 2)].join(" + ");
  const head = h("tr", {}, h("th", {}, ui.t("Pack")),
    Array.from({length: sides}, (_, i) => h("th", {}, sideName(i))));
  const rows = obs.pack_results.map((r, k) => h("tr", {},
    h("td", {}, String(k + 1)), r.total.map((p) => h("td", {}, String(p)))));
  return h("section", {class: "scores-box", "aria-label": ui.t("Points")},
    h("h2", {}, ui.t("Points")),
    h("table", {class: "scores"}, h("thead", {}, head), h("tbody", {}, rows,
      h("tr", {class: "total"}, h("th", {}, ui.t("Total")), obs.scores.map((p) => h("td", {}, String(p)))))));
}

function pickCard(c, acting, ui) {
  if (!acting) { ui.attempt(`${c} -`); return; }
  sel = sel.card === c ? {card: null, items: []} : {card: c, items: []};
  ui.rerender();
}

function toggleItem(item, acting, ui) {
  if (!acting) { ui.attempt("x"); return; }
  if (!sel.card) { ui.say(ui.t("Choose a card from your hand first.")); return; }
  sel.items = sel.items.includes(item) ? sel.items.filter((i) => i !== item) : [...sel.items, item];
  ui.rerender();
}

function event(ev, ui) {
  const d = ev.data;
  const name = ui.name(ev.seat);
  const cards = (list) => words(list, ui);
  const cardWords = (c) => casinoWords(c, ui.t);
  switch (ev.kind) {
    case "pack_start": return ui.t("── Pack {pack} begins; {name} deals ──", {pack: d.pack, name});
    case "table": return ui.t("Four cards go face up on the table: {cards}", {cards: cards(d.cards)});
    case "deal": return d.hand ? ui.t("You get {cards}.", {cards: cards(d.hand)}) : null;
    case "capture": {
      const line = ui.t("{name} plays {card} and takes {cards}.", {name, card: cardWords(d.card), cards: cards(d.taken)});
      return d.sweep ? `${line} ${ui.t("A sweep!")}` : line;
    }
    case "build":
      return d.multiple ?
        ui.t("{name} plays {card} onto {cards}: a call of {value}s.", {name, card: cardWords(d.card), cards: cards(d.joined), value: d.value}) :
        ui.t("{name} plays {card} onto {cards}: a build of {value}.", {name, card: cardWords(d.card), cards: cards(d.joined), value: d.value});
    case "trail": return ui.t("{name} trails {card}.", {name, card: cardWords(d.card)});
    case "table_taken": return ui.t("{name} takes the rest of the table: {cards}.", {name, cards: cards(d.cards)});
    case "pack_end": {
      const sides = d.points.total.length;
      const lines = Array.from({length: sides}, (_, i) => {
        const items = Object.keys(ITEMS).filter((k) => k !== "total" && d.points[k] && d.points[k][i])
          .map((k) => `${ui.t(ITEMS[k])} ${d.points[k][i]}`);
        const who = sides === ui.players ? ui.name(i) : `${ui.name(i)} + ${ui.name(i + 2)}`;
        const points = ui.tn("{n} point", "{n} points", d.points.total[i]);
        return items.length ? `${who}: ${points} (${items.join(", ")})` : `${who}: ${points}`;
      });
      return `${ui.t("Pack {pack} is over.", {pack: d.pack})} ${lines.join("; ")}.`;
    }
    case "game_over": {
      const who = d.winners.map((w) => ui.name(w)).join(" + ");
      return ui.t("Game over. Winner: {names} with {points} points.", {names: who, points: Math.max(...d.scores)});
    }
    default: return null;
  }
}

function playerInfo(obs, seat, ui) {
  return `${ui.tn("{n} card", "{n} cards", obs.hand_sizes[seat])} · ${ui.tn("{n} point", "{n} points", obs.scores[sideOf(obs, seat)])}`;
}

function summary(obs, returns, reveal, ui) {
  const sides = obs.scores.length;
  const winners = obs.winners;
  const mySide = obs.seat === null || obs.seat === undefined ? null : sideOf(obs, obs.seat);
  const verdict = mySide === null ? null : winners.includes(mySide) ? ui.t("You win!") : ui.t("You lose.");
  const sideName = (i) => sides === obs.players ? ui.name(i) : [ui.name(i), ui.name(i + 2)].join(" + ");
  return h("div", {class: "summary"},
    verdict ? h("p", {class: "verdict"}, verdict) : null,
    h("p", {}, ui.t("Game over. Winner: {names} with {points} points.",
                    {names: winners.map(sideName).join(", "), points: Math.max(...obs.scores)})),
    itemTable(obs, sideName, ui),
    scoreTable(obs, ui));
}

/** The points of each scoring item over all packs, per side. */
function itemTable(obs, sideName, ui) {
  const sides = obs.scores.length;
  const keys = Object.keys(ITEMS).filter((k) => k !== "total" &&
    obs.pack_results.some((r) => r[k] && r[k].some((p) => p)));
  if (!keys.length) return null;
  const sum = (k, i) => obs.pack_results.reduce((acc, r) => acc + (r[k] ? r[k][i] : 0), 0);
  return h("table", {class: "scores items"},
    h("caption", {}, ui.t("Points per scoring item")),
    h("thead", {}, h("tr", {}, h("th", {}, ui.t("Item")),
      Array.from({length: sides}, (_, i) => h("th", {}, sideName(i))))),
    h("tbody", {}, keys.map((k) => h("tr", {}, h("th", {}, sentenceCase(ui.t(ITEMS[k]))),
      Array.from({length: sides}, (_, i) => h("td", {}, String(sum(k, i))))))));
}

function param(name, value, ui) {
  if (typeof value !== "string") {
    if (name === "hand" && Array.isArray(value)) return words(value, ui);
    return null;
  }
  if (name === "action") return describeMove(value, ui);
  if (name === "card" || name === "missing") return /^[2-9TJQKA][cdhs]$/.test(value) ? casinoWords(value, ui.t) : null;
  if (name === "hand") return words(value.split(/[\s,]+/).filter(Boolean), ui);
  return null;
}

export default {
  name: "casino",
  blurb: N("Capture loose cards by value or build sums to take later; cards, spades, aces and the two casinos score."),
  reset() { sel = {card: null, items: []}; },
  board, event, playerInfo, summary, param, describeMove,
  out() { return false; },
  /** A partnership's points (its side's score; null when every seat scores alone). */
  teamScore(obs, seats) { return obs.scores.length === obs.players ? null : obs.scores[sideOf(obs, seats[0])]; },
};
