// Small DOM helpers shared by every view of the page (no library, no build step).

/** An element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = v;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Remove every child of ``el`` and add ``children``. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** GET or POST JSON; resolves to [status, body]. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  return [response.status, data];
}

/** The parts of the location hash: "#seat=abc&x=1" -> {seat: "abc", x: "1"}. */
export function hashParams() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    const key = at < 0 ? part : part.slice(0, at);
    out[decodeURIComponent(key)] = at < 0 ? "" : decodeURIComponent(part.slice(at + 1));
  }
  return out;
}

/** Copy text to the clipboard (falls back to selecting it). */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    if (input) { input.focus(); input.select(); }
    try { return document.execCommand("copy"); } catch (e2) { return false; }
  }
}
