// "Review my game" in the replay of a finished table: the search bot's chance to win after
// each of the player's decisions as a graph (inline SVG), the marked moves, and at each
// reviewed position the move played beside the bot's suggestion.
//
// The review is asked for with the player's seat link token in the request body
// (POST /api/web/review); the table view remembers the token for this tab (sessionStorage,
// never in a URL) when its game ends. Until the server has stored the review the panel asks
// again every second and shows how far it is.

import {number, reason, t, tn} from "./i18n.js";
import {api, h} from "./util.js";

const KEY = "kartentisch.review.";
const POLL_MS = 1000;
const reviews = new Map();  // table id -> {status, data, error, busy}
const SVG = "http://www.w3.org/2000/svg";

/** The table view calls this when its game is over: this tab may ask for the seat's review. */
export function rememberSeat(tableId, seat, token) {
  if (seat === null || seat === undefined || !token) return;
  try {
    sessionStorage.setItem(KEY + tableId, JSON.stringify({seat, token}));
  } catch (e) { /* storage switched off: no review button */ }
}

function remembered(tableId) {
  try {
    const found = JSON.parse(sessionStorage.getItem(KEY + tableId) || "null");
    return found && typeof found.token === "string" ? found : null;
  } catch (e) { return null; }
}

function styles() {
  if (document.getElementById("review-css")) return;
  document.head.append(h("link", {id: "review-css", rel: "stylesheet", href: "/static/review.css"}));
}

function percent(chance) {
  return number(Math.round(chance * 1000) / 10, 1) + " %";
}

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

function markWords(mark) {
  if (mark === "mistake") return t("Mistake");
  if (mark === "inaccuracy") return t("Inaccuracy");
  return "";
}

async function ask(tableId, rerender) {
  const entry = reviews.get(tableId);
  const mine = remembered(tableId);
  if (!entry || !mine) return;
  entry.busy = true;
  const [status, data] = await api("/api/web/review", {token: mine.token});
  entry.busy = false;
  if (status !== 200) {
    entry.error = data ? reason(data) : t("Something went wrong ({code}).", {code: status});
    entry.status = "error";
  } else {
    entry.error = null;
    entry.status = data.status;
    entry.data = data;
    if (data.status === "queued" || data.status === "running") {
      setTimeout(() => { if (reviews.get(tableId) === entry) ask(tableId, rerender); }, POLL_MS);
    }
  }
  rerender();
}

async function share(tableId, shared, rerender) {
  const mine = remembered(tableId);
  const entry = reviews.get(tableId);
  const [status, data] = await api("/api/web/review/share", {token: mine.token, shared});
  if (status === 200) entry.data = data;
  else entry.error = reason(data);
  rerender();
}

function graph(review, index, go) {
  const width = 640, height = 170, left = 34, right = 8, top = 8, bottom = 22;
  const last = Math.max(1, review.moves);
  const x = (frame) => left + (width - left - right) * frame / last;
  const y = (chance) => top + (height - top - bottom) * (1 - chance);
  const rated = review.decisions.filter((d) => !d.skipped);
  const axis = [0, 0.5, 1].map((c) => svg("g", {},
    svg("line", {x1: left, x2: width - right, y1: y(c), y2: y(c), class: "grid"}),
    svg("text", {x: left - 4, y: y(c) + 4, "text-anchor": "end"}, document.createTextNode(`${c * 100}`))));
  const played = svg("polyline", {class: "played", points: rated.map((d) => `${x(d.move - 1)},${y(d.played.chance)}`).join(" ")});
  const best = svg("polyline", {class: "best", points: rated.map((d) => `${x(d.move - 1)},${y(d.best.chance)}`).join(" ")});
  const dots = rated.map((d) => svg("circle", {
    cx: x(d.move - 1), cy: y(d.played.chance), r: d.mark ? 5 : 2.5,
    class: `dot ${d.mark || "plain"}`, "data-move": d.move, tabindex: d.mark ? 0 : null,
    onclick: () => go(d.move - 1),
    onkeydown: (e) => { if (e.key === "Enter") go(d.move - 1); }},
  svg("title", {}, document.createTextNode(t("Move {n}: {chance}", {n: d.move, chance: percent(d.played.chance)}) +
    (d.mark ? ` (${markWords(d.mark)})` : "")))));
  const here = svg("line", {x1: x(index), x2: x(index), y1: top, y2: height - bottom, class: "here"});
  return svg("svg", {id: "review-graph", viewBox: `0 0 ${width} ${height}`, role: "img",
                     "aria-label": t("Chance to win after each of your moves")},
    ...axis, best, played, here, ...dots,
    svg("text", {x: width - right, y: height - 6, "text-anchor": "end"}, document.createTextNode(t("move"))));
}

function here(review, index, describe) {
  const decision = review.decisions.find((d) => d.move === index + 1);
  if (!decision) return null;
  if (decision.skipped) {
    return h("p", {id: "review-here", class: "review-here"},
      decision.skipped === "forced" ? t("Your only allowed move here.") :
        t("An obvious move here: not reviewed."));
  }
  const same = decision.best.id === decision.played.id;
  return h("div", {id: "review-here", class: `review-here ${decision.mark || ""}`},
    h("p", {}, t("You played {move}: chance to win {chance}.",
      {move: describe(decision.played.text), chance: percent(decision.played.chance)}),
      decision.mark ? h("strong", {class: `mark ${decision.mark}`}, " ", markWords(decision.mark)) : null),
    same ? h("p", {}, t("The bot agrees with your move.")) :
      h("p", {class: "suggestion"}, t("The bot suggests {move}: chance to win {chance}.",
        {move: describe(decision.best.text), chance: percent(decision.best.chance)})));
}

/** The review panel of the replay (null where this tab holds no link of the table). */
export function reviewPanel({table, index, go, describe, rerender}) {
  if (!table) return null;
  const mine = remembered(table);
  if (!mine) return null;
  styles();
  let entry = reviews.get(table);
  const start = () => {
    entry = {status: "asking", data: null, error: null, busy: false};
    reviews.set(table, entry);
    ask(table, rerender);
    rerender();
  };
  const parts = [h("h2", {}, t("Review"))];
  if (!entry) {
    parts.push(h("p", {}, t("The search bot rates each of your decisions from what you knew at the time.")),
      h("button", {type: "button", class: "primary", id: "review-button", onclick: start}, t("Review my game")));
  } else if (entry.status === "error") {
    parts.push(h("p", {class: "message error", role: "alert"}, entry.error),
      h("button", {type: "button", id: "review-button", onclick: start}, t("Try again")));
  } else if (entry.status !== "done") {
    const d = entry.data;
    parts.push(h("p", {id: "review-status", role: "status"},
      d && d.total ? t("Reviewing your game: {done} of {total} decisions…", {done: d.done, total: d.total}) :
        t("Your review is waiting for the bots of live games…")));
  } else {
    const review = entry.data.review;
    const s = review.summary;
    const marked = review.decisions.filter((d) => d.mark);
    parts.push(
      h("p", {id: "review-summary"},
        tn("{n} decision reviewed", "{n} decisions reviewed", s.reviewed), " · ",
        tn("{n} inaccuracy", "{n} inaccuracies", s.inaccuracies), " · ",
        tn("{n} mistake", "{n} mistakes", s.mistakes), " · ",
        t("the bot's move {n} times", {n: s.agreed})),
      s.reviewed ? graph(review, index, go) :
        h("p", {id: "review-empty"}, t("Each of your moves was forced or obvious: nothing to review.")),
      s.reviewed ? h("p", {class: "legend"}, h("span", {class: "key played"}, t("your move")), " ",
        h("span", {class: "key best"}, t("the bot's move"))) : null,
      here(review, index, describe),
      !s.reviewed ? null : marked.length ? h("ol", {id: "review-marks"}, marked.map((d) => h("li", {},
        h("button", {type: "button", class: `mark ${d.mark}`, dataset: {move: d.move},
                     onclick: () => go(d.move - 1)},
          t("Move {n}: {mark}", {n: d.move, mark: markWords(d.mark)}))))) :
        h("p", {}, t("No move is marked: well played.")),
      h("label", {class: "share"}, h("input", {type: "checkbox", id: "review-share",
        checked: entry.data.shared, onchange: (e) => share(table, e.target.checked, rerender)}),
        " ", t("Everyone at the table may see my review")));
  }
  return h("section", {class: "review", id: "review", "aria-live": "polite"}, ...parts);
}
