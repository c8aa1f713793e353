// The game modules by game name.

import casino from "./casino.js";
import krassKariert from "./krass_kariert.js";
import krumme20 from "./krumme20.js";

const MODULES = {"krass-kariert": krassKariert, casino, krumme20};

export function gameModule(name) {
  return MODULES[name];
}
