// The table's websocket and what the page says about it (docs/page.md, "Connections"):
// reconnecting after a loss, a warning that stays exactly until the page has the whole
// view again, a move clicked while the connection was down (sent after the reconnect if
// the table is still at that move, else refused in words), a link the server does not
// know, and a second tab on the same seat.

import {t} from "./i18n.js";
import {h} from "./util.js";

const V = 1;

/** One table's connection: says hello (the fields ``hello()`` returns: the link's token,
 * the host token, the person's name) on every (re)connect and hands each
 * message to ``onMessage``. ``state`` is "connecting" (first try), "live" (welcomed and
 * the whole view received), "lost" (reconnecting) or "unknown" (the link is not valid);
 * ``onChange`` runs when it changes. ``onQueued(outcome)`` tells what became of a move
 * clicked while the connection was down: "sent" or "refused". */
export function openConnection(hello, {onMessage, onChange, onQueued}) {
  const conn = {state: "connecting", ws: null, closed: false, retry: 0, queued: null,
                lostOnce: false};

  function setState(state) {
    if (conn.state === state) return;
    conn.state = state;
    onChange(state);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    conn.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({v: V, type: "hello", ...hello()}));
    });
    ws.addEventListener("message", (e) => receive(JSON.parse(e.data)));
    ws.addEventListener("close", () => {
      if (conn.closed || conn.state === "unknown") return;
      conn.lostOnce = true;
      conn.retry = Math.min(conn.retry + 1, 5);
      setState("lost");
      setTimeout(() => { if (!conn.closed) connect(); }, 400 * conn.retry);
    });
  }

  function receive(m) {
    if (m.type === "error" && m.code === "session.unknown_link" && conn.state !== "live") {
      setState("unknown");
      conn.closed = true;
      if (conn.ws) conn.ws.close();
      return;
    }
    onMessage(m);
    if (m.type === "update" && m.full && conn.state !== "live") {
      conn.retry = 0;
      setState("live");
      flush(m);
    }
  }

  /** After the reconnect's whole view: the move clicked meanwhile, if still right. */
  function flush(update) {
    const queued = conn.queued;
    conn.queued = null;
    if (!queued) return;
    if (update.move === queued.move && update.legal.some((m) => m.id === queued.action)) {
      send(queued.message);
      onQueued("sent");
    } else {
      onQueued("refused");
    }
  }

  /** Send ``message`` now; false when the connection is down (nothing was sent). */
  function send(message) {
    if (conn.state !== "live" || !conn.ws || conn.ws.readyState !== WebSocket.OPEN) {
      return false;
    }
    conn.ws.send(JSON.stringify({v: V, ...message}));
    return true;
  }

  /** Send a move, or keep it for the reconnect (the latest click wins); true if sent. */
  function sendMove(message) {
    if (send(message)) return true;
    conn.queued = {move: message.move, action: message.action, message};
    return false;
  }

  function close() {
    conn.closed = true;
    if (conn.ws) conn.ws.close();
  }

  connect();
  return Object.assign(conn, {send, sendMove, close});
}

/** The line that says the connection is down (null while it is live). */
export function connectionBanner(conn) {
  if (!conn || conn.state === "live" || conn.state === "unknown") return null;
  if (conn.state === "connecting" && !conn.lostOnce) return null;
  const waiting = conn.queued ?
    t("Your move is kept and will be sent when the connection is back.") : null;
  return h("p", {class: "connection-lost", id: "connection", role: "alert"},
    t("The connection was lost; connecting again…"), waiting ? " " : null, waiting);
}

/** The whole view for a link the server does not know (never a bare code). */
export function unknownLinkView() {
  return h("section", {class: "unknown-link", id: "unknown-link"},
    h("h1", {}, t("This link is unknown or no longer valid")),
    h("p", {}, t("The table may have been closed, or the link was changed by its host. Ask the person who invited you for a new link, or find a table in the lobby.")),
    h("a", {class: "button primary", href: "#", id: "to-lobby"}, t("Go to the lobby")));
}

/** The choice of a second tab on a seat that another tab plays (null when this one
 * plays it). ``kept``: the person chose to keep watching here (a smaller note stays). */
export function otherTabBanner(active, kept, {takeOver, keep}) {
  if (active) return null;
  const take = h("button", {type: "button", class: "primary", id: "take-over",
                            onclick: takeOver}, t("Take over here"));
  if (kept) {
    return h("div", {class: "other-tab kept", id: "other-tab", role: "status"},
      h("span", {}, t("You are watching your seat here; it is played in another tab.")),
      " ", take);
  }
  return h("div", {class: "other-tab", id: "other-tab", role: "alert"},
    h("p", {}, t("This seat is open in another tab or window.")),
    h("div", {class: "row"}, take,
      h("button", {type: "button", id: "keep-watching", onclick: keep},
        t("Keep watching here"))));
}
