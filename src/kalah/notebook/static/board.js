// The notebook's live board (kalah.notebook.play): the kernel keeps the game
// and sends each position; this module draws it with the page's board
// (live.js), turns clicks on pits into messages, and holds the buttons.

import { liveBoard } from "./live.js";

function render({ model, el }) {
  el.classList.add("kalah-live");
  const bar = document.createElement("div");
  bar.className = "kalah-live-bar";
  const message = document.createElement("span");
  message.className = "kalah-live-message";
  const back = Object.assign(document.createElement("button"), { textContent: "Take back" });
  const swap = Object.assign(document.createElement("button"), { textContent: "Swap sides" });
  const again = Object.assign(document.createElement("button"), { textContent: "New game" });
  back.addEventListener("click", () => model.send({ type: "take_back" }));
  swap.addEventListener("click", () => model.send({ type: "move", move: "swap" }));
  again.addEventListener("click", () => model.send({ type: "new_game" }));
  bar.append(back, swap, again, message);

  const human = model.get("human");
  const board = liveBoard(el, model, { bottom: human, onPit: (pit) => model.send({ type: "move", player: human, move: pit }) });
  el.append(bar);
  // A click on a pit that cannot be played goes to the kernel too: it says why not.
  board.svg.addEventListener("click", (event) => {
    const pit = event.target.closest("[data-pit]");
    if (!pit || pit.classList.contains("legal")) return;
    const [player, index] = pit.getAttribute("data-pit").split("-").map(Number);
    model.send({ type: "move", player, move: index });
  });

  function status() {
    message.textContent = model.get("message");
    el.classList.toggle("kalah-thinking", model.get("thinking"));
    back.disabled = !model.get("can_take_back") || model.get("thinking");
    swap.hidden = !model.get("can_swap");
  }
  model.on("change:view", board.update);
  model.on("change:message", status);
  model.on("change:thinking", status);
  model.on("change:can_take_back", status);
  model.on("change:can_swap", status);
  board.update();
  status();
}

export default { render };
