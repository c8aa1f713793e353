// The end of a game (docs/page.md, "Rematch and series"): a rematch offered to everyone at
// the table, each person accepting from their own page (and moving to the new table with
// their own link), and the tally of the series so far.

import {t, tn} from "./i18n.js";
import {members, teamTag, winningTeams} from "./teams.js";
import {api, h, replace} from "./util.js";

/** What to do at the end: offer a rematch, accept one, or show who accepted. ``offer``:
 * the latest ``rematch_offer`` (null: none yet). */
export function rematchControls({offer, seat, watcher, name, ask}) {
  if (watcher) {
    return offer ? h("p", {class: "rematch-offer", id: "rematch-offer"},
      t("The players are offered a rematch.")) : null;
  }
  if (!offer) {
    return h("button", {type: "button", class: "primary", id: "play-again", onclick: ask},
      t("Play again"));
  }
  const accepted = offer.accepted.map((s) => name(s)).join(", ");
  const mine = offer.accepted.includes(seat);
  return h("div", {class: "rematch-offer", id: "rematch-offer", role: "status"},
    h("p", {}, t("Rematch accepted by: {names}", {names: accepted})),
    mine ? h("p", {}, t("Moving to the new table…")) :
      h("button", {type: "button", class: "primary", id: "accept-rematch", onclick: ask},
        t("Accept the rematch")));
}

/** Follow the server's answer to ``rematch``: ``keepHost(answer)`` keeps the new table's
 * host token (the host's page shows the links there), then the page goes to the new seat. */
export function goToRematch(answer, keepHost) {
  if (answer.host && keepHost) keepHost(answer);
  location.hash = answer.link.replace(/^#/, "");
}

/** Who played whom in this series, and how often each person (in a team game: each team)
 * won (filled in when the server answers; empty for a table that is not part of a series
 * yet). A rematch keeps seats and options, so the same seats form the same teams. */
const tallies = new Map();

export function seriesTally(tableId, seatName, teams = []) {
  if (tallies.has(tableId)) return tallies.get(tableId);  // asked once per table
  const box = h("section", {class: "series", id: "series", "aria-live": "polite"});
  tallies.set(tableId, box);
  api(`/api/web/series/${encodeURIComponent(tableId)}`).then(([status, data]) => {
    if (status !== 200 || !data || data.tables.length < 2) return;
    const wins = new Map();
    const finished = data.tables.filter((g) => g.status === "finished" && g.returns);
    if (teams.length) {
      replace(box, teamTally(finished, teams, seatName));
      return;
    }
    for (const game of finished) {
      const best = Math.max(...game.returns);
      game.returns.forEach((r, seat) => {
        const who = (game.names && game.names[seat]) || seatName(seat);
        if (!wins.has(who)) wins.set(who, 0);
        if (r === best) wins.set(who, wins.get(who) + 1);
      });
    }
    const rows = [...wins.entries()].sort((a, b) => b[1] - a[1]);
    replace(box,
      h("h3", {}, tn("The series so far: {n} game", "The series so far: {n} games",
                     finished.length, {n: finished.length})),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("Player")),
                                   h("th", {scope: "col"}, t("Games won")))),
        h("tbody", {}, rows.map(([who, n]) =>
          h("tr", {}, h("td", {}, who), h("td", {class: "wins"}, String(n)))))));
  });
  return box;
}

/** The series by team: each team (its letter and this table's players) and its wins. */
function teamTally(finished, teams, seatName) {
  const wins = teams.map(() => 0);
  for (const game of finished) {
    for (const i of winningTeams(teams, game.returns)) wins[i] += 1;
  }
  return [
    h("h3", {}, tn("The series so far: {n} game", "The series so far: {n} games",
                   finished.length, {n: finished.length})),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("Team")),
                                 h("th", {scope: "col"}, t("Players")),
                                 h("th", {scope: "col"}, t("Games won")))),
      h("tbody", {}, teams.map((seats, i) =>
        h("tr", {dataset: {team: i}}, h("td", {}, teamTag(i)), h("td", {}, members(seats, seatName)),
          h("td", {class: "wins"}, String(wins[i]))))))];
}
