// The seats around the felt: the other players sit at the top, left and right of an oval
// felt, the player ("you") always at the bottom with the hand; the centre holds what the game
// plays to. Each seat shows its name (with a coloured initial), whether a bot plays it, the
// game's short line (cards, chips, points), the turn as a ring and the clock at the seat.
// Used by the table and the replay; the game modules give the seats' and the centre's parts.

import {teamTag} from "./teams.js";
import {h} from "./util.js";

const COLOURS = ["#b5472f", "#2f6fb5", "#8a3fb5", "#b58a2f", "#2f9e8f", "#b52f6f", "#5a7d2f", "#6b5b4b"];

/** Where the other players sit, clockwise from the player's left: [position, seat]; the
 * player (a watcher: seat 0) sits at the bottom. */
export function seatPositions(players, me) {
  const base = me === null || me === undefined ? 0 : me;
  const others = [];
  for (let k = 1; k < players; k++) others.push((base + k) % players);
  const n = others.length;
  if (n <= 2) return others.map((s) => ["top", s]);
  return others.map((s, k) => [k === 0 ? "left" : k === n - 1 ? "right" : "top", s]);
}

/** A seat's initial in its colour (a person's first letter, or the seat number); in a team
 * game in its team's colour, with the team's letter as a badge on its corner (the words
 * "Team A" for screen readers beside it). */
function avatar(seat, label, team = null) {
  const letter = (label || "").trim().charAt(0).toUpperCase() || String(seat);
  if (team === null) {
    return h("span", {class: "avatar", "aria-hidden": "true",
                      style: `background:${COLOURS[seat % COLOURS.length]}`}, letter);
  }
  return h("span", {class: "avatar-team"},
    h("span", {class: "avatar", "aria-hidden": "true"}, letter), teamTag(team));
}

/** One seat: ``info`` = {seat, name, kind (words), bot (bool), line, clock, toMove, out,
 * team (its index, or null)}; a team's seat carries the team's band and letter (teams.js). */
function seatItem(info, position, content) {
  const classes = ["seat", `pos-${position}`, info.me ? "me" : "opponent"];
  if (info.toMove) classes.push("to-move");
  if (info.out) classes.push("out");
  const team = info.team === null || info.team === undefined ? null : info.team;
  if (team !== null) classes.push("in-team", `team-${team}`);
  return h("li", {class: classes.join(" "), dataset: team === null ? {seat: info.seat} : {seat: info.seat, team},
                  "aria-current": info.toMove ? "true" : null, "aria-label": info.label},
    h("div", {class: "seat-head"},
      avatar(info.seat, info.initial, team),
      h("span", {class: "seat-name player-name"}, info.name),
      info.bot ? h("span", {class: "bot-mark", title: info.botMark}, info.botShort || info.botMark) : null,
      info.toMove ? h("span", {class: "seat-clock", dataset: {clock: info.seat}}, info.clock || "") : null),
    h("div", {class: "seat-line"}, info.kind ? h("span", {class: "seat-kind player-kind"}, info.kind) : null,
      info.line ? h("span", {class: "seat-info"}, info.line) : null),
    content ? h("div", {class: "seat-cards"}, content) : null);
}

/** The felt: ``ctx`` = {players, me, seatInfo(seat) -> info, label}, ``parts`` = the game's
 * {info, seat(s), centre, mine, below}; ``extra`` = what goes beside the hand (messages,
 * moves). */
export function felt(ctx, parts, extra = []) {
  const groups = {left: [], top: [], right: []};
  for (const [position, s] of seatPositions(ctx.players, ctx.me)) {
    groups[position].push(seatItem(ctx.seatInfo(s), position, parts.seat ? parts.seat(s) : null));
  }
  const list = (position) => groups[position].length ?
    h("ol", {class: `players seats-${position}`, "aria-label": ctx.label}, groups[position]) : null;
  const bottom = ctx.me === null || ctx.me === undefined ? 0 : ctx.me;
  const own = parts.mine ? null : parts.seat ? parts.seat(bottom) : null;
  const mine = h("ol", {class: "players seats-me", "aria-label": ctx.label},
    seatItem({...ctx.seatInfo(bottom), me: bottom === ctx.me}, "bottom", own));
  const sides = groups.left.length ? " with-sides" : "";
  return h("div", {class: `felt players-${ctx.players}${sides}`, id: "board"},
    parts.info ? h("div", {class: "felt-info"}, parts.info) : null,
    list("top"), list("left"), list("right"),
    h("div", {class: "centre"}, parts.centre),
    h("div", {class: "bottom"}, mine, parts.mine, extra));
}
