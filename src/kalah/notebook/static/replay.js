// A game record with a slider (kalah.notebook.replay): the kernel sends the
// position at the chosen move; the page's board (live.js) draws it, animating
// a step forward. The slider and the arrow buttons choose the move.

import { liveBoard } from "./live.js";

function render({ model, el }) {
  el.classList.add("kalah-live");
  const board = liveBoard(el, model, { bottom: 0 });
  const bar = document.createElement("div");
  bar.className = "kalah-replay-bar";
  const back = Object.assign(document.createElement("button"), { textContent: "◀" });
  const forward = Object.assign(document.createElement("button"), { textContent: "▶" });
  const slider = Object.assign(document.createElement("input"), { type: "range", min: "0", step: "1" });
  const label = document.createElement("span");
  bar.append(back, slider, forward, label);
  el.append(bar);
  const go = (index) => {
    model.set("index", Math.max(0, Math.min(model.get("count"), index)));
    model.save_changes();
  };
  back.addEventListener("click", () => go(model.get("index") - 1));
  forward.addEventListener("click", () => go(model.get("index") + 1));
  slider.addEventListener("input", () => go(Number(slider.value)));
  function caption() {
    slider.max = String(model.get("count"));
    slider.value = String(model.get("index"));
    label.textContent = model.get("caption");
  }
  model.on("change:view", board.update);
  model.on("change:caption", caption);
  board.update();
  caption();
}

export default { render };
