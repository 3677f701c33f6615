// The notebook's trace tree (kalah.notebook.show_trace). The tree is the lab
// page's own (web/static/lab/trace.js and tree.js, imported as they are: the
// widget's module is this file with its imports resolved by
// kalah.notebook.modules): the same drawing, kinds and marks. This part adds
// the buttons, a step slider and the current node's facts.

import { KIND_NAMES, indexTrace, moveLetter, valueText, windowText } from "../../web/static/lab/trace.js";
import { TreeView } from "../../web/static/lab/tree.js";

const SVGNS = "http://www.w3.org/2000/svg";

/** The smallest scale at which the tree's text is readable (the lab's tree.js does not go below it). */
const LEGIBLE_SCALE = 0.7;

function button(text, title, onClick) {
  const b = Object.assign(document.createElement("button"), { textContent: text, title });
  b.addEventListener("click", onClick);
  return b;
}

function render({ model, el }) {
  el.classList.add("kalah-trace");
  const trace = model.get("trace");
  const facts = model.get("facts");
  const n = trace.nodes.length;
  const head = document.createElement("div");
  head.className = "kalah-trace-head";
  head.textContent = `${trace.algorithm}, depth ${trace.depth}: ${n} nodes · value ${trace.result.value} · best move ${moveLetter(trace.result.best_move, trace.position.to_move)}`;
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVGNS, "svg"));
  svg.setAttribute("class", "tree");
  const bar = document.createElement("div");
  bar.className = "kalah-trace-bar";
  const slider = Object.assign(document.createElement("input"), { type: "range", min: "0", max: String(n - 1), step: "1", value: "0" });
  const info = document.createElement("div");
  info.className = "kalah-trace-info";
  // A notebook's output is narrower than the lab: the tree gets the width it needs at a legible size and
  // the frame around it scrolls sideways, rather than nodes vanishing past the edge.
  const frame = document.createElement("div");
  frame.className = "kalah-trace-frame";
  frame.append(svg);
  el.append(head, frame, bar, info);

  const tree = new TreeView(svg, (id) => show(id));
  const ix = indexTrace(trace);
  let current = 0;
  function show(id) {
    current = Math.max(0, Math.min(n - 1, id));
    tree.goTo(current);
    follow(current);
    slider.value = String(current);
    const node = trace.nodes[current];
    const window = windowText(node);
    info.textContent = `node ${current + 1} of ${n} · ${KIND_NAMES[node.kind] || node.kind} · ${node.depth} plies left`
      + (window ? ` · window ${window}` : "") + ` · returns ${valueText(node)}`
      + (node.cutoff ? " · cutoff" : "") + (node.table_hit ? " · table hit" : "");
  }
  bar.append(
    button("|◀", "first node", () => show(0)),
    button("◀", "previous node", () => show(current - 1)),
    button("▶", "next node (visiting order)", () => show(current + 1)),
    button("▶|", "last node", () => show(n - 1)),
    slider,
    button("+", "zoom in", () => tree.zoom(1 / 1.3)),
    button("−", "zoom out", () => tree.zoom(1.3)),
    button("Fit", "the whole tree", () => widen()),
    button("Open all", "open every node", () => { tree.expandAll(); widen(); }),
    button("Close all", "close every node", () => { tree.collapseAll(); widen(); }),
  );
  /** Scroll the frame so that the node `id` is in sight (the wide tree is wider than the notebook). */
  function follow(id) {
    const node = svg.querySelector(`[data-node-id="${id}"]`);
    if (!node) return;
    const box = node.getBoundingClientRect(), seen = frame.getBoundingClientRect();
    if (box.left < seen.left || box.right > seen.right) frame.scrollLeft += box.left - seen.left - (seen.width - box.width) / 2;
  }
  /** The tree's own width at the smallest legible scale, or the frame's if that is wider; then fitted. */
  function widen() {
    const legible = Math.ceil((tree.size.w + 40) * LEGIBLE_SCALE);
    svg.style.width = `${Math.max(frame.clientWidth, legible)}px`;
    tree.fit();
    follow(current);
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  // Laid out once the widget is in the page: the tree's size comes from the element's.
  requestAnimationFrame(() => {
    tree.load(ix);
    tree.learn(facts);  // fits the tree again, widened by the skipped moves (load left it fitted)
    show(0);
    widen();
  });
}

export default { render };
