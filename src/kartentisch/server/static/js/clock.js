// The turn clock as the page shows it (docs/page.md, "The fair clock"): the seconds left,
// the last ten urgent (red, and said once by the screen reader's alert region), and what
// the log and the player see when the clock played a move for them.

import {t} from "./i18n.js";
import {h} from "./util.js";

export const URGENT_SECONDS = 10;

/** Whole seconds left of ``update``'s deadline (null: no clock or not running). */
export function secondsLeft(update) {
  if (!update || update.status !== "playing" || update.deadline === null ||
      update.deadline === undefined) return null;
  return Math.max(0, Math.ceil((update.deadline - Date.now()) / 1000));
}

/** The clock's words: seconds left, the clock waiting for the start, or no limit. */
export function clockText(update, {clock, started}) {
  if (!update || update.status !== "playing") return "";
  const left = secondsLeft(update);
  if (left !== null) return t("{seconds} s left for this move", {seconds: left});
  if (clock && !started) return t("The clock starts when the game starts.");
  return clock ? "" : t("no time limit");
}

/** The clock's element (refreshed by :func:`tickClock`) and its alert region. */
export function clockElement(update, info) {
  const left = secondsLeft(update);
  const urgent = left !== null && left <= URGENT_SECONDS;
  return [h("span", {id: "clock", class: `clock${urgent ? " urgent" : ""}`},
            clockText(update, info)),
          h("span", {id: "clock-alert", class: "sr-only", role: "alert"})];
}

/** Refresh the clock in ``root`` (every quarter second); when this seat is to move and the
 * last seconds begin, say so once per move in the alert region and show it red. */
export function tickClock(root, update, info, memory) {
  const el = root.querySelector("#clock");
  if (!el) return;
  el.textContent = clockText(update, info);
  const left = secondsLeft(update);
  const urgent = left !== null && left <= URGENT_SECONDS;
  el.classList.toggle("urgent", urgent);
  const alert = root.querySelector("#clock-alert");
  if (urgent && info.acting && alert && memory.warned !== update.move) {
    memory.warned = update.move;
    alert.textContent = t("Only {seconds} seconds left for your move!", {seconds: left});
  }
}

/** The log's line for a move the clock made (``name``: the player's name; ``move``: the
 * move in words, known only to the player it was made for). */
export function expiredLine(name, move) {
  if (move) return t("Your time ran out: {move} was played for you.", {move});
  return t("{name}'s time ran out: the clock played for them.", {name});
}

/** The notice the player keeps until they act (dismissed by their next move). */
export function expiredNotice(text, dismiss) {
  return h("div", {class: "clock-expired", id: "clock-expired", role: "alert"},
    h("strong", {}, text), " ",
    h("button", {type: "button", class: "quiet", onclick: dismiss}, t("OK")));
}
