// Before the start (docs/page.md, "The start of a table"): who is still awaited, and for
// the host a "Start now". Until the start neither bots nor the clock move.

import {t} from "./i18n.js";
import {h} from "./util.js";

/** The seats whose person has not come yet (a seat nobody claimed, or one a bot covers,
 * is not awaited). */
export function awaitedSeats(seats) {
  return seats.filter((s) => s.kind === "human" && !s.open && !s.joined && !s.left);
}

/** The panel while the table waits for its players (null once it has started). */
export function waitingPanel(table, {host, name, start}) {
  if (!table || table.started !== false || table.status !== "playing") return null;
  const awaited = awaitedSeats(table.seats || []);
  return h("section", {class: "waiting", id: "waiting", role: "status", "aria-live": "polite"},
    h("strong", {}, t("The game starts when everyone has joined.")),
    awaited.length ? h("p", {}, t("Still awaited:")) : null,
    awaited.length ? h("ul", {class: "awaited"}, awaited.map((s) =>
      h("li", {dataset: {seat: s.seat}}, name(s.seat)))) : null,
    host ? h("p", {},
      h("button", {type: "button", class: "primary", id: "start-now", onclick: start},
        t("Start now")), " ",
      h("span", {class: "hint-text"},
        t("Seats nobody has joined yet wait without a clock until their person comes or you let a bot play there."))) :
      h("p", {}, t("The host can also start the game now.")));
}
