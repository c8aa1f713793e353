// Teams at the table (docs/page.md, "Teams"): the table's ``teams`` (seats of each team, team 0
// first, [] when everyone plays alone; docs/protocol.md) named Team A, Team B ... Each team
// has a colour and, for readers who cannot tell the colours apart, a letter and a pattern of
// its own (solid, striped, dotted band); screen readers hear "Team A". Nothing here knows a
// game: a game module may give ``teamScore(obs, seats)`` when its teams keep a score.

import {t, tn} from "./i18n.js";
import {h} from "./util.js";

const LETTERS = "ABCDEFGH";

/** The team of ``seat`` (its index), or null without teams. */
export function teamOf(teams, seat) {
  if (!teams || !teams.length) return null;
  const index = teams.findIndex((seats) => seats.includes(seat));
  return index < 0 ? null : index;
}

/** "Team A" in the reader's language. */
export function teamName(index) {
  return t("Team {letter}", {letter: LETTERS[index % LETTERS.length]});
}

/** The team's small marker at a seat: its letter on its colour (the words for readers). */
export function teamTag(index) {
  return h("span", {class: `team-tag team-${index % LETTERS.length}`},
    h("span", {"aria-hidden": "true"}, LETTERS[index % LETTERS.length]),
    h("span", {class: "sr-only"}, teamName(index)));
}

/** The names of a team's seats, joined as a sentence lists them ("Anna and Bot 2"). */
export function members(seats, name) {
  const names = seats.map((s) => name(s));
  if (names.length <= 1) return names.join("");
  return t("{names} and {last}", {names: names.slice(0, -1).join(", "), last: names[names.length - 1]});
}

/** A team's return: the mean of its seats' returns (teammates usually share one). */
function teamReturn(returns, seats) {
  return seats.reduce((sum, s) => sum + returns[s], 0) / seats.length;
}

/** The teams that won by ``returns`` (the highest team return; none when all are equal). */
export function winningTeams(teams, returns) {
  if (!teams || !teams.length || !returns) return [];
  const values = teams.map((seats) => teamReturn(returns, seats));
  const best = Math.max(...values);
  if (values.every((v) => Math.abs(v - best) < 1e-9)) return [];
  return values.map((v, i) => [v, i]).filter(([v]) => Math.abs(v - best) < 1e-9).map(([, i]) => i);
}

/** The team result as a sentence: which team won (with its players), or a draw. */
export function teamResultText(teams, returns, name) {
  const won = winningTeams(teams, returns);
  if (!won.length) return t("The teams draw.");
  if (won.length > 1) {
    return t("Shared win: {teams}.", {teams: won.map((i) => teamName(i)).join(", ")});
  }
  return t("{team} wins: {names}.", {team: teamName(won[0]), names: members(teams[won[0]], name)});
}

/** The teams above the felt: each team's marker, players and (when the game keeps one) its
 * score. ``score(seats)`` gives a team's score or null. */
export function teamsBar(teams, {name, score, me}) {
  if (!teams || !teams.length) return null;
  const mine = teamOf(teams, me);
  return h("ul", {class: "teams-bar", id: "teams", "aria-label": t("Teams")},
    teams.map((seats, i) => {
      const points = score ? score(seats) : null;
      return h("li", {class: `team team-${i}${i === mine ? " my-team" : ""}`, dataset: {team: i}},
        teamTag(i), " ",
        h("span", {class: "team-players"}, members(seats, name)),
        i === mine ? h("span", {class: "team-yours"}, ` (${t("your team")})`) : null,
        points === null || points === undefined ? null :
          h("span", {class: "team-score"}, h("span", {class: "team-sep"}, "· "),
            tn("{n} point", "{n} points", points)));
    }));
}

/** The end screen's team result: who won, whether it is the reader's team, the scores. */
export function teamResult(teams, returns, {name, score, me}) {
  if (!teams || !teams.length || !returns) return null;
  const won = winningTeams(teams, returns);
  const mine = teamOf(teams, me);
  const verdict = mine === null ? null : won.includes(mine) ?
    (won.length > 1 ? t("Your team shares the win!") : t("Your team wins!")) :
    won.length ? t("Your team loses.") : null;
  return h("section", {class: "team-result", id: "team-result"},
    h("h3", {}, t("Team result")),
    verdict ? h("p", {class: "verdict"}, verdict) : null,
    h("p", {}, teamResultText(teams, returns, name)),
    h("table", {class: "scores"},
      h("thead", {}, h("tr", {},
        h("th", {scope: "col"}, t("Team")), h("th", {scope: "col"}, t("Players")),
        score ? h("th", {scope: "col"}, t("Points")) : null,
        h("th", {scope: "col"}, t("Result")))),
      h("tbody", {}, teams.map((seats, i) =>
        h("tr", {class: won.includes(i) ? "won" : "lost", dataset: {team: i}},
          h("td", {}, teamTag(i)), h("td", {}, members(seats, name)),
          score ? h("td", {}, String(score(seats) ?? "–")) : null,
          h("td", {}, won.includes(i) ? t("won") : won.length ? t("lost") : t("draw")))))));
}
