// @ts-check
/* The page's settings: the animation speed (kept in localStorage; off at first where the system asks for
 * reduced motion) and the computer-against-computer speed.
 *
 * For tests: ?anim=off|MS sets the animation, ?speed=MS the delay between
 * computer moves. */

import { $input, $select } from "./dom.js";
import { setAnimMs } from "./state.js";

const STORAGE_KEY = "kalah.anim";

/** Set and remember the animation speed. @param {string} value milliseconds per step, "0" for off */
function setAnimation(value) {
  setAnimMs(Number(value));
  $select("#anim").value = String(value);
  try { localStorage.setItem(STORAGE_KEY, String(value)); } catch (e) { /* private mode */ }
}

/** Whether the system asks for less motion (prefers-reduced-motion). @returns {boolean} */
export const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Read the settings from the address (`params`) or from the last visit, and wire their controls.
 * @param {URLSearchParams} params */
export function setUpSettings(params) {
  let anim = null;
  try { anim = localStorage.getItem(STORAGE_KEY); } catch (e) { anim = null; }
  // one who asked their system for less motion gets no sowing animation unless they choose one here
  if (anim === null && reducedMotion()) anim = "0";
  if (params.has("anim")) anim = params.get("anim") === "off" ? "0" : params.get("anim");
  if (anim !== null && !isNaN(Number(anim))) {
    const ms = Number(anim);
    setAnimMs(ms);
    const select = $select("#anim");
    if (![...select.options].some((o) => o.value === String(ms))) {
      const option = document.createElement("option");
      option.value = String(ms);
      option.textContent = `${ms} ms`;
      select.appendChild(option);
    }
    select.value = String(ms);
  }
  const speed = params.get("speed");
  if (speed !== null) $input("#speed").value = speed;
  $select("#anim").addEventListener("change", () => setAnimation($select("#anim").value));
}
