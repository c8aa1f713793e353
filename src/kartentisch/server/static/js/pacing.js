// The pace of the table: other players' moves are shown one after another (a setting, from
// instant to slow), the card a move puts into the centre travels there from its seat (a CSS
// transform, none with prefers-reduced-motion or instant pace), and the player's turn is
// announced: the tab's title and icon change, and an optional soft sound (made with WebAudio,
// nothing fetched) plays.

const PACE_KEY = "kartentisch.pace";
const SOUND_KEY = "kartentisch.sound";

/** The paces a player may choose: [milliseconds, label id]. */
export const PACES = [[0, "instant"], [500, "quick"], [900, "normal"], [1500, "slow"]];

/** The chosen pace in milliseconds between others' moves (default: normal). */
export function pace() {
  const saved = localStorage.getItem(PACE_KEY);
  const value = saved === null ? 900 : Number(saved);
  return Number.isFinite(value) && value >= 0 ? Math.min(value, 3000) : 900;
}

export function setPace(ms) { localStorage.setItem(PACE_KEY, String(ms)); }

export function soundOn() { return localStorage.getItem(SOUND_KEY) === "1"; }

export function setSound(on) { localStorage.setItem(SOUND_KEY, on ? "1" : "0"); }

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A queue that shows updates one after another: ``apply(m)`` shows an update; after an
 * update that shows another player's move (``isOthers(m)``) the next waits for the pace.
 * A full update (after hello or sync) drops what was waiting and shows at once. */
export function pacer(apply, isOthers) {
  const queue = [];
  let timer = null;

  function next() {
    timer = null;
    const m = queue.shift();
    if (!m) return;
    apply(m);
    const wait = isOthers(m) ? pace() : 0;
    if (wait > 0) timer = setTimeout(next, wait);
    else if (queue.length) next();
  }

  return {
    push(m) {
      if (m.full) {
        queue.length = 0;
        clearTimeout(timer);
        timer = null;
      }
      queue.push(m);
      if (!timer) next();
    },
    /** Show everything waiting at once (the player chose the instant pace). */
    flush() {
      clearTimeout(timer);
      timer = null;
      while (queue.length) apply(queue.shift());
    },
    waiting() { return queue.length; },
    stop() { clearTimeout(timer); timer = null; queue.length = 0; },
  };
}

/** Animates what newly arrived in the centre (``[data-arrive=SEAT]`` with a ``data-arrive-key``
 * not seen before) from its seat to where it lies. */
export function arrivals() {
  let seen = null;
  return {
    run(root) {
      const items = [...root.querySelectorAll("[data-arrive-key]")];
      const first = seen === null;
      const before = seen || new Set();
      seen = new Set(items.map((el) => el.dataset.arriveKey));
      if (first || pace() === 0 || reducedMotion()) return;
      for (const el of items) {
        if (before.has(el.dataset.arriveKey) || typeof el.animate !== "function") continue;
        const from = root.querySelector(`.seat[data-seat="${CSS.escape(el.dataset.arrive || "")}"]`);
        if (!from) continue;
        const a = from.getBoundingClientRect();
        const b = el.getBoundingClientRect();
        const dx = a.left + a.width / 2 - (b.left + b.width / 2);
        const dy = a.top + a.height / 2 - (b.top + b.height / 2);
        el.animate([{transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.4},
                    {transform: "none", opacity: 1}],
                   {duration: 320, easing: "cubic-bezier(.2,.7,.3,1)"});
      }
    },
    reset() { seen = null; },
  };
}

let audio = null;

/** A soft two-note chime, made with WebAudio (no sound file). */
export function chime() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.01;
    [[660, 0], [880, 0.14]].forEach(([freq, at]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.12, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at);
      osc.stop(start + at + 0.25);
    });
  } catch (e) {
    // no sound is no harm
  }
}

/** Tells the player it is their turn: the tab title starts with "●", the icon gets a dot,
 * and the chime plays (when switched on) as the turn begins. */
export function turnSignal() {
  let was = false;
  return {
    show(mine, title, turnWords) {
      document.title = mine ? `● ${turnWords} · ${title}` : title;
      const icon = document.querySelector("link[rel=icon]");
      if (icon) icon.href = mine ? "/static/icon-turn.svg" : "/static/icon.svg";
      if (mine && !was && soundOn()) chime();
      was = mine;
    },
    clear() {
      was = false;
      const icon = document.querySelector("link[rel=icon]");
      if (icon) icon.href = "/static/icon.svg";
    },
  };
}
