// The notebook's trace tree (kalah.notebook.show_trace). The tree is the lab
// page's own (web/static/lab/trace.js and tree.js, imported as they are: the
// widget's module is this file with its imports resolved by
// kalah.notebook.modules): the same drawing, kinds and marks. This part adds
// the buttons, a step slider and the current node's facts.

import { KIND_NAMES, indexTrace, moveLetter, valueText, windowText } from "../../web/static/lab/trace.js";
import { TreeView } from "../../web/static/lab/tree.js";

const SVGNS = "http://www.w3.org/2000/svg";

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
  el.append(head, svg, bar, info);

  const tree = new TreeView(svg, (id) => show(id));
  const ix = indexTrace(trace);
  let current = 0;
  function show(id) {
    current = Math.max(0, Math.min(n - 1, id));
    tree.goTo(current);
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
    button("Fit", "the whole tree", () => tree.fit()),
    button("Open all", "open every node", () => tree.expandAll()),
    button("Close all", "close every node", () => tree.collapseAll()),
  );
  slider.addEventListener("input", () => show(Number(slider.value)));
  // Laid out once the widget is in the page: the tree's size comes from the element's.
  requestAnimationFrame(() => {
    tree.load(ix);
    tree.learn(facts);  // fits the tree again, widened by the skipped moves (load left it fitted)
    show(0);
  });
}

export default { render };
