// The notebook's live board (kalah.notebook.play): the SVG comes from the
// kernel (kalah.rules.svg, the drawing of the browser board); this module only
// shows it, turns clicks on the player's pits into messages, and animates the
// pits a move changed (in the order the seeds were sown).

const STEP_MS = 70;

/** Cells (player * (pits + 1) + index) in sowing order -> the board's element for each. */
function cellElement(root, cell, pits) {
  const player = Math.floor(cell / (pits + 1)), index = cell % (pits + 1);
  return index === pits ? root.querySelector(`[data-store="${player}"]`) : root.querySelector(`[data-pit="${player}-${index}"]`);
}

function render({ model, el }) {
  el.classList.add("kalah-live");
  const board = document.createElement("div");
  board.className = "kalah-live-board";
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
  el.append(board, bar);

  board.addEventListener("click", (event) => {
    const pit = event.target.closest("[data-pit]");
    if (!pit) return;
    const [player, index] = pit.getAttribute("data-pit").split("-").map(Number);
    model.send({ type: "move", player, move: index });
  });

  function draw() {
    board.innerHTML = model.get("svg");
    const pits = model.get("pits");
    model.get("sown").forEach((cell, k) => {
      const target = cellElement(board, cell, pits);
      if (target) {
        target.style.animationDelay = `${k * STEP_MS}ms`;
        target.classList.add("kalah-sown");
      }
    });
    const human = model.get("human");
    for (const pit of board.querySelectorAll("[data-pit]")) {
      if (Number(pit.getAttribute("data-pit").split("-")[0]) === human) pit.classList.add("kalah-mine");
    }
  }
  function status() {
    message.textContent = model.get("message");
    el.classList.toggle("kalah-thinking", model.get("thinking"));
    back.disabled = !model.get("can_take_back") || model.get("thinking");
    swap.hidden = !model.get("can_swap");
  }
  model.on("change:svg", draw);
  model.on("change:message", status);
  model.on("change:thinking", status);
  model.on("change:can_take_back", status);
  model.on("change:can_swap", status);
  draw();
  status();
}

export default { render };
