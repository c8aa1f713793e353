// People's display names: chosen once, remembered in this browser (localStorage), sent in
// hello; shown as text only (h() makes text nodes; a name never becomes HTML). The server
// checks every name again (docs/protocol.md, "Names"); the check here only saves a round trip.

import {t} from "./i18n.js";
import {h, replace} from "./util.js";

const KEY = "kartentisch.name";
export const NAME_MAX = 24;
const ALLOWED = /^[\p{L}\p{M}\p{N} .\-_'(),]+$/u;

/** The name this browser remembers ("" when none was chosen yet). */
export function myName() {
  return localStorage.getItem(KEY) || "";
}

/** Remember ``name`` (already checked) for every later table. */
export function rememberName(name) {
  localStorage.setItem(KEY, name);
}

/** ``text`` as a display name (trimmed, inner spaces collapsed), or null with the reason in
 * words: [name, null] or [null, reason]. */
export function checkName(text) {
  const name = String(text || "").normalize("NFC").trim().split(/\s+/u).join(" ");
  if (!name || !/[\p{L}\p{N}]/u.test(name)) return [null, t("Please enter a name.")];
  if (name.length > NAME_MAX) return [null, t("A name has at most {n} characters.", {n: NAME_MAX})];
  if (!ALLOWED.test(name)) {
    return [null, t("A name may have letters, digits, spaces and . - _ ' ( ) , only.")];
  }
  return [name, null];
}

/** The form that asks for the person's name (prefilled with the remembered one);
 * ``done(name)`` runs once a good name was entered and remembered. */
export function nameForm({title, button, done, id = "name-form", focus = true}) {
  const error = h("p", {class: "error", role: "alert", id: `${id}-error`});
  const input = h("input", {type: "text", id: `${id}-input`, value: myName(), maxlength: 64,
                            autocomplete: "nickname", required: true, spellcheck: "false",
                            dataset: {key: `${id}-input`},
                            "aria-describedby": `${id}-error`});
  const form = h("form", {class: "name-form", id, onsubmit: (e) => {
    e.preventDefault();
    const [name, why] = checkName(input.value);
    if (!name) { replace(error, why); input.focus(); return; }
    rememberName(name);
    done(name);
  }},
    h("h2", {}, title),
    h("p", {class: "help"}, t("Everyone at the table sees this name. It is kept in this browser only.")),
    h("label", {for: `${id}-input`}, t("Your name")), " ", input, " ",
    h("button", {type: "submit", class: "primary", id: `${id}-ok`}, button),
    error);
  if (focus) setTimeout(() => input.focus(), 0);
  return form;
}

/** A seat's name for people: its person's name, else "Seat N". */
export function seatLabel(seats, seat) {
  const info = seats && seats[seat];
  return info && info.name ? info.name : t("Seat {seat}", {seat});
}
