// Cards drawn as inline SVG: faces for the three games and a back for hidden cards.

import {N} from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function frame(kind) {
  const root = svg("svg", {viewBox: "0 0 60 84", class: `card-svg ${kind}`, "aria-hidden": "true",
                           focusable: "false"});
  root.append(svg("rect", {x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-bg"}));
  return root;
}

/** A card's back (a hidden card). */
export function backSvg() {
  const root = frame("back");
  root.append(svg("rect", {x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back"}));
  root.append(svg("path", {d: "M30 18 L44 42 L30 66 L16 42 Z", class: "card-back-mark"}));
  return root;
}

const KK_SPECIAL = {X: "x", N: "n", S: "s"};

/** A Krass Kariert card: 1-12, X (joker), N (Nachzieh), S (Stopp). */
export function kkSvg(name) {
  const kind = KK_SPECIAL[name] || (Number(name) % 2 ? "odd" : "even");
  const root = frame(`kk kk-${kind}`);
  const big = name === "N" ? "N" : name === "S" ? "S" : name;
  root.append(svg("text", {x: 6, y: 18, class: "card-corner"}, big));
  root.append(svg("text", {x: 30, y: 54, class: "card-big", "text-anchor": "middle"}, big));
  root.append(svg("text", {x: 54, y: 78, class: "card-corner", "text-anchor": "end"}, big));
  return root;
}

const SUITS = {c: "♣", d: "♦", h: "♥", s: "♠"};
const RANKS = {T: "10"};

/** A Casino card ("7h", "Td", "As"). */
export function casinoSvg(name) {
  const rank = RANKS[name[0]] || name[0];
  const suit = name[name.length - 1];
  const root = frame(`casino suit-${suit}`);
  root.append(svg("text", {x: 5, y: 18, class: "card-corner"}, rank));
  root.append(svg("text", {x: 5, y: 32, class: "card-corner"}, SUITS[suit]));
  root.append(svg("text", {x: 30, y: 58, class: "card-big", "text-anchor": "middle"},
                  SUITS[suit]));
  root.append(svg("text", {x: 55, y: 78, class: "card-corner", "text-anchor": "end"}, rank));
  return root;
}

/** A Krumme20 card: the up side large, the down side small below (``?`` when unknown). */
export function k20Svg(up, down, {cross = false} = {}) {
  const root = frame(`k20${cross ? " cross" : ""}`);
  const upText = up === null || up === undefined ? "?" : String(up);
  const downText = down === null || down === undefined ? "?" : String(down);
  root.append(svg("text", {x: 30, y: 46, class: `card-big k20-up v${upText}`,
                           "text-anchor": "middle"}, upText));
  root.append(svg("line", {x1: 10, y1: 58, x2: 50, y2: 58, class: "k20-rule"}));
  root.append(svg("text", {x: 30, y: 76, class: "card-small k20-down", "text-anchor": "middle"},
                  downText));
  return root;
}

const SUIT_WORDS = {c: N("clubs"), d: N("diamonds"), h: N("hearts"), s: N("spades")};
const RANK_WORDS = {A: N("ace"), J: N("jack"), Q: N("queen"), K: N("king"), T: "10"};

/** A Casino card ("Td") in the reader's words: "10 of diamonds", German "Karo 10". */
export function casinoWords(name, t) {
  const suit = SUIT_WORDS[name[name.length - 1]];
  const rankCode = name.slice(0, -1);
  if (!suit || !rankCode) return name;
  const rank = RANK_WORDS[rankCode] ? t(RANK_WORDS[rankCode]) : rankCode;
  return t("{rank} of {suit}", {rank, suit: t(suit)});
}

/** Several Casino cards in words, joined with commas. */
export function casinoList(names, t) {
  return names.map((c) => casinoWords(c, t)).join(", ");
}

/** What a screen reader says for a card's button: its words, hidden from the eye (the
 * picture beside it is hidden from the screen reader), so that the button's name is its
 * content. */
export function spoken(text) {
  const span = document.createElement("span");
  span.className = "sr-only";
  span.textContent = text;
  return span;
}
