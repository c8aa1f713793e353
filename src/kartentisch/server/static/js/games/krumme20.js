// Krumme20 at the table: double-sided cards showing the sides this player knows, the play
// pile and its total, the special actions and the compensation, and fouls as they happen.

import {backSvg, k20Svg, spoken} from "../cards.js";
import {N} from "../i18n.js";
import {h} from "../util.js";

const PHASE_HELP = {
  turn: N("play a personal card (or show 3/3 or Σ20 first)"),
  flip: N("action of the 0: turn a card over, or pass"),
  take: N("action of the 1: take a card, or pass"),
  draw: N("action of the 2: draw a card, or pass to stop"),
  throw: N("action of the 3: throw a further 3, or pass to stop"),
  four: N("action of the 4: make the next player sit out, or pass"),
  five: N("the total is 15: play a second card as a 5, or pass"),
  after: N("after the play: show 3/3 or Σ20, or pass to end the turn"),
  foul: N("after a foul: put a lowest personal card on your score pile, or pass"),
  loss: N("compensation for a taken card: draw one, or pass"),
  sitout: N("compensation for sitting out: draw one (or with 5 cards put a lowest on your score pile), or pass"),
  over: N("the game is over"),
};
// With the rules option compensation=take the compensation is a card taken like the 1's
// action, and the steps ask for that instead of a draw.
const TAKE_HELP = {
  loss: N("compensation for a taken card: take one like the 1's action, or pass"),
  sitout: N("compensation for sitting out: take one like the 1's action (or with 5 cards put a lowest on your score pile), or pass"),
};
const FOULS = {
  over: N("the total went over the target"),
  three_zeros_over: N("three 0s turned the total over the target"),
  second_not_five: N("the second card on 15 was not a 5"),
  throw_not_three: N("the thrown card was not a 3"),
  claim33: N("the 3/3 set was wrong"),
  claim_sum: N("the Σ set was wrong"),
};

let sel = {choices: null};

/** A legal move's notation as data. */
export function parseMove(text) {
  let m = /^([pft])(\d+)$/.exec(text);
  if (m) return {kind: {p: "play", f: "second", t: "throw"}[m[1]], own: Number(m[2]) - 1};
  m = /^low (\d+)$/.exec(text);
  if (m) return {kind: "low", own: Number(m[1]) - 1};
  m = /^(flip|take) (\d+):(\d+)$/.exec(text);
  if (m) return {kind: m[1], seat: Number(m[2]), index: Number(m[3]) - 1};
  m = /^(flip|take) s(\d+)$/.exec(text);
  if (m) return {kind: `${m[1]}-score`, score: Number(m[2]) - 1};
  m = /^33 ([\d,]+)$/.exec(text);
  if (m) return {kind: "claim33", cards: m[1].split(",").map(Number)};
  return {kind: text};
}

function describeMove(text, ui) {
  const m = parseMove(text);
  switch (m.kind) {
    case "play": return ui.t("play personal card {n}", {n: m.own + 1});
    case "second": return ui.t("play personal card {n} as a second card (a 5)", {n: m.own + 1});
    case "throw": return ui.t("throw personal card {n} as a 3", {n: m.own + 1});
    case "low": return ui.t("put personal card {n} on your score pile", {n: m.own + 1});
    case "flip": return ui.t("turn over card {n} of {name}", {n: m.index + 1, name: ui.name(m.seat)});
    case "take": return ui.t("take card {n} of {name}", {n: m.index + 1, name: ui.name(m.seat)});
    case "flip-score": return ui.t("turn over card {n} of your score pile", {n: m.score + 1});
    case "take-score": return ui.t("take card {n} back from your score pile", {n: m.score + 1});
    case "take draw": return ui.t("take the top of the draw pile");
    case "take discard": return ui.t("take the top of the discard pile");
    case "draw": return ui.t("draw a card");
    case "sitout": return ui.t("make the next player sit out");
    case "pass": return ui.t("pass");
    case "sum up": return ui.t("show your cards: up sides sum to the target");
    case "sum down": return ui.t("show your cards: down sides sum to the target");
    case "claim33": return ui.t("show cards {cards} as 3/3", {cards: m.cards.join(", ")});
    default: return text;
  }
}

function side(v) { return v === null || v === undefined ? "?" : String(v); }

function cardLabel(c, ui) {
  const text = c.down === null || c.down === undefined ?
    ui.t("{up} up, other side unknown", {up: side(c.up)}) :
    ui.t("{up} up, {down} down", {up: side(c.up), down: side(c.down)});
  return c.cross ? `${text}, ${ui.t("crosswise")}` : text;
}

/** A card as the position document writes it ("3/1", "3/1x+", "0/?") as data. */
export function parseCard(text) {
  const m = /^(\d+|\?)\/(\d+|\?)(x?)\+?$/.exec(String(text));
  if (!m) return {up: null, down: null, cross: false};
  const num = (v) => v === "?" ? null : Number(v);
  return {up: num(m[1]), down: num(m[2]), cross: m[3] === "x"};
}

/** A card of an event ("4/5", "0/?") in words. */
function cardWords(text, ui) {
  return cardLabel(parseCard(text), ui);
}

/** The observation with every hidden side turned up from the server's reveal (game over). */
function revealed(obs, reveal) {
  if (!reveal || !reveal.hands) return obs;
  const all = (list) => list.map((c) => ({...parseCard(c), up_known: [], down_known: []}));
  return {...obs, hands: reveal.hands.map(all), scores: reveal.scores.map(all),
          ablage: all(reveal.ablage || []), abwurf: all(reveal.abwurf || []),
          draw_pile: all(reveal.draw_pile || []), sitting_out: obs.sitting_out.map(() => false)};
}

/** What the step asks for, as the table's rules options read it. */
function stepHelp(phase, options) {
  if (options && options.compensation === "take" && TAKE_HELP[phase]) return TAKE_HELP[phase];
  return PHASE_HELP[phase] || phase;
}

function board(view, ui) {
  const obs = view.finished ? revealed(view.obs, view.reveal) : view.obs;
  const moves = view.legal.map((m) => ({...m, ...parseMove(m.text)}));
  const acting = view.acting;
  const me = obs.open ? null : view.seat;
  const hint = view.hint ? parseMove(view.hint.text) : null;
  const last = obs.ablage.length - 1;

  const centre = h("section", {class: "k20-center", "aria-label": ui.t("Play pile")},
    h("p", {class: "total"}, h("span", {class: "total-number", id: "total"}, String(obs.total)),
      h("span", {}, " / ", String(obs.target))),
    obs.zeros ? h("p", {}, ui.tn("{n} zero in a row", "{n} zeros in a row", obs.zeros)) : null,
    obs.phase !== "over" ? h("p", {class: "phase"},
      ui.t("{name}: {step}", {name: ui.name(obs.current_player), step: ui.t(stepHelp(obs.phase, view.options))})) : null,
    obs.final_turns !== null && obs.final_turns !== undefined && obs.phase !== "over" ?
      h("p", {class: "warn"}, ui.t("Final lap.")) : null,
    h("div", {class: "piles"},
      h("div", {class: "pile-box"}, h("h3", {}, ui.t("Play pile")),
        h("div", {class: "cards small"}, obs.ablage.length ? obs.ablage.map((c, i) => faceCard(c, ui, i === last ?
          {dataset: {arrive: obs.turn_player, arriveKey: `pile-${obs.ablage.length}-${obs.total}-${c.up}`}} : {})) : "–")),
      pileButton("discard", obs.abwurf, moves, acting, ui),
      pileButton("draw", obs.draw_pile, moves, acting, ui)));

  const extra = moves.filter((m) => ["draw", "take draw", "take discard", "sitout", "pass", "sum up",
                                      "sum down", "claim33"].includes(m.kind));
  const controls = [];
  if (sel.choices) {
    controls.push(h("div", {class: "choice", role: "group"},
      sel.choices.map((m) => h("button", {type: "button", class: "legal", dataset: {move: m.text, key: `choice-${m.text}`},
                                           onclick: () => ui.play(m.id)}, cap(describeMove(m.text, ui))))));
  }
  for (const m of extra) {
    const hinted = view.hint && view.hint.text === m.text ? " hinted" : "";
    controls.push(h("button", {type: "button", class: `legal${hinted}`, dataset: {move: m.text, key: `do-${m.text}`},
                               onclick: () => ui.play(m.id)}, cap(describeMove(m.text, ui))));
  }
  const mine = me === null || me === undefined ? null : h("div", {class: "mine k20-mine"},
    seatBox(obs, me, me, moves, acting, hint, ui),
    controls.length ? h("div", {class: "controls k20-actions"}, controls) : null);
  return {
    info: null,
    seat: (s) => seatBox(obs, s, me, moves, acting, hint, ui),
    centre, mine,
  };
}

function cap(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function faceCard(c, ui, attrs = {}) {
  return h("span", {class: `card k20${c.cross ? " cross" : ""}`, ...attrs}, k20Svg(c.up, c.down, {cross: c.cross}),
    h("span", {class: "sr-only"}, cardLabel(c, ui)));
}

function pileButton(which, pile, moves, acting, ui) {
  const top = pile.length ? pile[pile.length - 1] : null;
  const texts = which === "draw" ? ["take draw", "draw"] : ["take discard"];
  const found = moves.filter((m) => texts.includes(m.text));
  const title = which === "draw" ? ui.t("Draw pile") : ui.t("Discard pile");
  const face = top === null ? h("span", {class: "empty"}, "–") :
    top.up === null && top.down === null ? h("span", {class: "card back"}, backSvg()) : faceCard(top, ui);
  return h("div", {class: "pile-box"}, h("h3", {}, title),
    h("button", {type: "button", class: `pile${acting && found.length ? " legal" : ""}`,
                 dataset: {pile: which, key: `pile-${which}`},
                 onclick: () => choose(found, texts[texts.length - 1], acting, ui)},
      spoken(`${title}:`), face, h("span", {class: "count"}, ui.tn("{n} card", "{n} cards", pile.length))));
}

function seatBox(obs, s, me, moves, acting, hint, ui) {
  const hand = obs.hands[s];
  const personal = hand.map((c, i) => {
    const here = moves.filter((m) => (m.own === i && s === me) ||
      ((m.kind === "flip" || m.kind === "take") && m.seat === s && m.index === i));
    const fallback = s === me ? ownFallback(obs.phase, i, s) :
      obs.phase === "flip" ? `flip ${s}:${i + 1}` : `take ${s}:${i + 1}`;
    const hinted = hint && ((s === me && hint.own === i) || (hint.seat === s && hint.index === i));
    return h("button", {type: "button", class: `card k20${acting && here.length ? " legal" : ""}${hinted ? " hinted" : ""}`,
      dataset: {seat: s, index: i + 1, key: `card-${s}-${i}`},
      onclick: () => choose(here, fallback, acting, ui)}, k20Svg(c.up, c.down),
      spoken(`${ui.t("card {n} of {name}", {n: i + 1, name: ui.name(s)})}: ${cardLabel(c, ui)}`));
  });
  const scores = obs.scores[s].map((c, i) => {
    if (s !== me) return faceCard(c, ui);
    const here = moves.filter((m) => (m.kind === "flip-score" || m.kind === "take-score") && m.score === i);
    const fallback = obs.phase === "flip" ? `flip s${i + 1}` : `take s${i + 1}`;
    const hinted = hint && hint.score === i;
    return h("button", {type: "button", class: `card k20${c.cross ? " cross" : ""}${acting && here.length ? " legal" : ""}${hinted ? " hinted" : ""}`,
      dataset: {score: i + 1, key: `score-${i}`},
      onclick: () => choose(here, fallback, acting, ui)}, k20Svg(c.up, c.down, {cross: c.cross}),
      spoken(`${ui.t("score card {n}", {n: i + 1})}: ${cardLabel(c, ui)}`));
  });
  const flags = [];
  if (obs.sitting_out[s] && obs.phase !== "over") flags.push(ui.t("sits out next turn"));
  if (obs.fouls[s]) flags.push(ui.tn("{n} foul", "{n} fouls", obs.fouls[s]));
  return h("section", {class: `k20-seat${s === me ? " own" : ""}`, dataset: {seat: s}},
    flags.length ? h("p", {class: "flags"}, flags.join(" · ")) : null,
    h("div", {class: "hand"}, personal.length ? personal : h("span", {class: "help"}, ui.t("(no cards)"))),
    h("div", {class: "score-pile"}, h("span", {class: "help"}, ui.t("Score pile")), " ",
      scores.length ? scores : "–"));
}

function ownFallback(phase, i, seat) {
  const n = i + 1;
  if (phase === "five") return `f${n}`;
  if (phase === "throw") return `t${n}`;
  if (phase === "foul" || phase === "sitout") return `low ${n}`;
  if (phase === "flip") return `flip ${seat}:${n}`;
  return `p${n}`;
}

function choose(found, fallback, acting, ui) {
  if (!acting || !found.length) { sel.choices = null; ui.attempt(fallback); return; }
  if (found.length === 1) { sel.choices = null; ui.play(found[0].id); return; }
  sel.choices = found;
  ui.rerender();
}

function event(ev, ui) {
  const d = ev.data;
  const name = ui.name(ev.seat);
  switch (ev.kind) {
    case "deal": return ui.t("── New game: first turn to {name} (highest personal cards) ──", {name: ui.name(d.start)});
    case "turn": return ui.t("Turn {turn}: {name}, total {total}.", {turn: d.turn, name, total: d.total});
    case "play": return ui.t("{name} played a card counting {number}: total {total}.", {name, number: d.number, total: d.total});
    case "second": return ui.t("{name} played a second card as a 5, counting {number}: total {total}.", {name, number: d.number, total: d.total});
    case "throw": return ui.t("{name} threw a card as a 3; it shows {number}.", {name, number: d.number});
    case "flip": return ui.t("{name} turned personal card {index} of {owner} over: now {card}.", {name, index: d.index + 1, owner: ui.name(d.owner), card: cardWords(d.card, ui)});
    case "flip_score": return ui.t("{name} turned score card {index} over: now {card}.", {name, index: d.index + 1, card: cardWords(d.card, ui)});
    case "take": return ui.t("{name} took personal card {index} of {victim} ({up} up).", {name, index: d.index + 1, victim: ui.name(d.from), up: d.up});
    case "take_score": return ui.t("{name} took a card back from the score pile ({up} up).", {name, up: d.up});
    case "take_draw": case "draw": return ui.t("{name} drew a card ({up} up).", {name, up: side(d.up)});
    case "take_discard": return ui.t("{name} took the top of the discard pile ({up} up).", {name, up: d.up});
    case "sitout": return ui.t("{name} made {victim} sit out.", {name, victim: ui.name(d.victim)});
    case "sat_out": return ui.t("Turn of {name} skipped (sitting out).", {name});
    case "no_card": return ui.t("Turn of {name} skipped (no personal card).", {name});
    case "score": return d.crosswise ? ui.t("{name} puts a card on the score pile ({card}), crosswise: it counts double.", {name, card: cardWords(d.card, ui)}) :
      ui.t("{name} puts a card on the score pile ({card}).", {name, card: cardWords(d.card, ui)});
    case "lowest": return ui.t("{name} puts a lowest personal card on the score pile ({card}).", {name, card: cardWords(d.card, ui)});
    case "twenty": return ui.t("{name} hit the target exactly!", {name});
    case "over": return ui.t("Over the target ({total}): the play pile is discarded.", {total: d.total});
    case "three_zeros": return ui.t("Three 0s in a row turn over ({cards}): total {total}.", {cards: d.cards.map((c) => cardWords(c, ui)).join("; "), total: d.total});
    case "foul": return ui.t("Foul by {name}: {what}.", {name, what: ui.t(FOULS[d.kind] || d.kind)});
    case "claim33": return d.true ? ui.t("{name} showed a 3/3 set ({cards}): right.", {name, cards: d.cards.map((c) => cardWords(c, ui)).join("; ")}) :
      ui.t("{name} showed a 3/3 set ({cards}): wrong.", {name, cards: d.cards.map((c) => cardWords(c, ui)).join("; ")});
    case "claim_sum": {
      const numbers = d.numbers.join(" + ");
      return d.true ? ui.t("{name} showed a Σ set ({numbers}): right.", {name, numbers}) :
        ui.t("{name} showed a Σ set ({numbers}): wrong.", {name, numbers});
    }
    case "refill": return ui.tn("{name} had no personal card left and drew {count} card.",
                                "{name} had no personal card left and drew {count} cards.", d.count, {name, count: d.count});
    case "draw_pile_empty": return d.final_lap ? ui.t("The draw pile is empty: final lap, one more turn each.") :
      ui.t("The draw pile is empty: the game ends with this turn.");
    case "turn_limit": return ui.t("Turn limit reached: final lap, one more turn each.");
    case "pass": return ui.t("{name} passed.", {name});
    case "game_over": {
      const scores = d.scores.map((v, s) => `${ui.name(s)} ${v}`).join(", ");
      const winners = d.winners.map((s) => ui.name(s)).join(", ");
      return ui.t("Game over. Points: {scores}. Winner: {winners}.", {scores, winners});
    }
    default: return null;
  }
}

function playerInfo(obs, seat, ui) {
  return `${ui.tn("{n} card", "{n} cards", obs.hands[seat].length)} · ${ui.tn("{n} point", "{n} points", obs.points[seat])}`;
}

function summary(obs, returns, reveal, ui) {
  const winners = returns ? returns.map((r, s) => [r, s]).filter(([r]) => r > 0).map(([, s]) => s) : [];
  const me = obs.seat;
  const verdict = me === null || me === undefined ? null : winners.includes(me) ? ui.t("You win!") : ui.t("You lose.");
  return h("div", {class: "summary"},
    verdict ? h("p", {class: "verdict"}, verdict) : null,
    h("table", {class: "scores"},
      h("thead", {}, h("tr", {}, h("th", {}, ui.t("Player")), h("th", {}, ui.t("Points")), h("th", {}, ui.t("Result")))),
      h("tbody", {}, obs.points.map((p, s) => h("tr", {class: winners.includes(s) ? "won" : "lost"},
        h("td", {}, ui.name(s)), h("td", {}, String(p)),
        h("td", {}, winners.includes(s) ? ui.t("won") : ui.t("lost")))))));
}

function param(name, value, ui) {
  if (name === "step" && PHASE_HELP[value]) return ui.t(PHASE_HELP[value]);
  if ((name === "move" || name === "text") && typeof value === "string") return describeMove(value, ui);
  if (name === "legal") {
    const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(/,\s*/) : null;
    return list ? list.map((m) => describeMove(m, ui)).join("; ") : null;
  }
  return null;
}

export default {
  name: "krumme20",
  blurb: N("Add double-sided cards to a pile whose total must land on exactly 20; every number has a special action, fouls reward the others."),
  reset() { sel = {choices: null}; },
  board, event, playerInfo, summary, param, describeMove,
  out() { return false; },
  /** A team's score in the team game: the engine's team points (the sum of its players'
   * score piles), or that sum where the observation has none. */
  teamScore(obs, seats) {
    const index = (obs.teams || []).findIndex((team) => team.join() === seats.join());
    if (index >= 0 && obs.team_points) return obs.team_points[index];
    return seats.reduce((sum, s) => sum + obs.points[s], 0);
  },
};
