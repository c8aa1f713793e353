// The page's words: the same gettext catalogue as the terminal, served by the server as JSON
// (GET /api/web/catalogue). Message ids are English; a missing translation shows the id.
// Errors are rendered from their reason code and params, never from the server's English text.

import {api} from "./util.js";
import {PAGE_REASONS, sentence} from "./words.js";

const state = {language: "en", catalogue: {messages: {}, plurals: {}, reasons: {}}};
const listeners = [];
let paramHook = null;

/** The language the browser asks for: German when its first preference is German. */
export function browserLanguage() {
  const saved = localStorage.getItem("kartentisch.language");
  if (saved === "de" || saved === "en") return saved;
  const wanted = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return wanted.toLowerCase().startsWith("de") ? "de" : "en";
}

export function language() { return state.language; }

/** Load ``lang``'s catalogue and tell every listener (views re-render). */
export async function setLanguage(lang, remember = false) {
  const [status, data] = await api(`/api/web/catalogue?lang=${encodeURIComponent(lang)}`);
  if (status !== 200 || !data) throw new Error("the catalogue could not be loaded");
  state.language = data.language;
  state.catalogue = data;
  if (remember) localStorage.setItem("kartentisch.language", data.language);
  document.documentElement.lang = data.language;
  for (const listener of listeners) listener(data.language);
}

export function onLanguage(listener) { listeners.push(listener); }

/** Fill ``{name}`` fields; ``{name:.1f}``-style specs are read as plain fields. */
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)(?:![rsa])?(?::[^}]*)?\}/g, (whole, name) =>
    name in params ? String(params[name]) : "?");
}

/** The translation of message id ``id`` with ``params`` filled in. */
export function t(id, params) {
  const text = state.catalogue.messages[id] || id;
  return params ? fill(text, params) : text;
}

/** The plural form for ``n`` of (``singular``, ``plural``), ``params`` filled in. */
export function tn(singular, plural, n, params = {}) {
  const forms = state.catalogue.plurals[singular] || [singular, plural];
  return fill(n === 1 ? forms[0] : forms[forms.length - 1], {n, ...params});
}

/** A number as the language writes it (12.345 in German, 12,345 in English). */
export function number(value, digits) {
  const options = digits === undefined ? {} :
    {minimumFractionDigits: digits, maximumFractionDigits: digits};
  return new Intl.NumberFormat(state.language === "de" ? "de-DE" : "en-GB", options).format(value);
}

/** Set the game's param localizer: (name, value) -> words or null. */
export function setParamHook(hook) { paramHook = hook; }

function plain(value) {
  if (value === null || value === undefined) return "?";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return Number.isInteger(value) ? number(value) : String(value);
  if (Array.isArray(value)) return value.map(plain).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** An error message ({code, params}) in the reader's language, from its reason code (or the
 * page's own words for it), as a sentence. */
export function reason(error) {
  const template = PAGE_REASONS[error.code] || state.catalogue.reasons[error.code];
  if (template === undefined) {
    return t("Something went wrong ({code}).", {code: error.code || "?"});
  }
  const values = {};
  for (const [name, value] of Object.entries(error.params || {})) {
    const shown = paramHook ? paramHook(name, value) : null;
    values[name] = shown !== null && shown !== undefined ? shown : plain(value);
  }
  return sentence(fill(t(template), values));
}

/** Marks a message id for the catalogue without translating it (as Python's N_). */
export function N(id) { return id; }
