// "Let a bot play for me" (docs/page.md, "Stand-ins"): asked once more in a dialog, and
// while a stand-in plays, a banner says so with "Take my seat back" always at hand.

import {t} from "./i18n.js";
import {h} from "./util.js";

/** Ask before leaving; ``leave`` runs only when the person confirms. */
export function confirmLeave(leave) {
  let dialog = document.getElementById("stand-in-dialog");
  if (dialog) dialog.remove();
  dialog = h("dialog", {id: "stand-in-dialog", class: "confirm",
                        "aria-labelledby": "stand-in-title"},
    h("h2", {id: "stand-in-title"}, t("Let a bot play for you?")),
    h("p", {}, t("A bot makes your moves at a calm pace until you take your seat back. You can take it back at any time.")),
    h("div", {class: "row"},
      h("button", {type: "button", class: "primary", id: "stand-in-yes", onclick: () => {
        dialog.close();
        leave();
      }}, t("Yes, let a bot play")),
      h("button", {type: "button", id: "stand-in-no", onclick: () => dialog.close()},
        t("No, I keep playing"))));
  document.body.append(dialog);
  dialog.addEventListener("close", () => dialog.remove());
  dialog.showModal();
  dialog.querySelector("#stand-in-no").focus();
}

/** The banner while a stand-in plays ``mine`` (null otherwise). */
export function standInBanner(mine, finished, takeBack) {
  if (!mine || mine.kind !== "human" || !mine.left || finished) return null;
  return h("div", {class: "stand-in-banner", id: "stand-in", role: "status"},
    h("span", {}, t("A stand-in bot is playing your seat.")), " ",
    h("button", {type: "button", class: "primary", id: "take-seat",
                 dataset: {key: "take-seat"}, onclick: takeBack}, t("Take my seat back")));
}

/** The quiet button that starts the question (null when it does not apply). */
export function leaveButton(mine, finished, leave) {
  if (!mine || mine.kind !== "human" || mine.left || finished) return null;
  return h("button", {type: "button", class: "quiet", id: "leave", dataset: {key: "leave"},
                      onclick: () => confirmLeave(leave)}, t("Let a bot play for me"));
}
