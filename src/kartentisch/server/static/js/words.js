// Players' words for the engine's reason codes where its English template would show the
// engine's notation or read oddly on the page; every other code uses its template.

import {N} from "./i18n.js";

export const PAGE_REASONS = {
  "action.not_your_turn": N("It is not your turn: {current} is to move."),
  "k20.take_whose": N("{move}: take a personal card of another player or a card of your own score pile."),
};

/** A message as a sentence: a capital first letter and a full stop at the end. */
export function sentence(text) {
  const trimmed = String(text).trim();
  if (!trimmed) return trimmed;
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…:)]$/.test(first) ? first : `${first}.`;
}

/** A text with a capital first letter (a button's label made from a move's words). */
export function sentenceCase(text) {
  const value = String(text);
  return value.charAt(0).toUpperCase() + value.slice(1);
}
