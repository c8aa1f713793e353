// The page's entry: language, header and the view the location hash asks for
// (#seat=TOKEN, #watch=TOKEN, #host=TOKEN, #replay=TABLE&view=..., else the lobby).

import {browserLanguage, language, onLanguage, setLanguage, t} from "./i18n.js";
import {showLobby} from "./lobby.js";
import {showReplay} from "./replay.js";
import {showTable} from "./table.js";
import {h, hashParams, replace} from "./util.js";

const main = document.getElementById("main");
const header = document.getElementById("header");
let current = null;

function renderHeader() {
  const select = h("select", {id: "language", "aria-label": t("Language"),
                              onchange: (e) => setLanguage(e.target.value, true)},
    h("option", {value: "de", selected: language() === "de"}, "Deutsch"),
    h("option", {value: "en", selected: language() === "en"}, "English"));
  replace(header,
    h("a", {href: "#", class: "brand"}, "kartentisch"),
    h("nav", {"aria-label": t("Main")},
      h("a", {href: "#"}, t("Lobby"))),
    h("label", {class: "language"}, h("span", {class: "sr-only"}, t("Language")), select));
}

function route() {
  if (current && current.close) current.close();
  const params = hashParams();
  if (params.seat || params.watch || params.host) {
    current = showTable(main, params.seat ? {token: params.seat} :
      params.host ? {host: params.host} : {token: params.watch, watcher: true});
  } else if (params.replay !== undefined) {
    current = showReplay(main, params);
  } else {
    current = showLobby(main);
  }
}

onLanguage(() => {
  renderHeader();
  document.title = t("kartentisch: card games in the browser");
  if (current && current.relabel) current.relabel();
});

window.addEventListener("hashchange", route);

setLanguage(browserLanguage()).then(route, (error) => {
  replace(main, h("p", {class: "error"}, String(error)));
});
