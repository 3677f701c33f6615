// @ts-check
/* Where the nodes of the open part of a search tree go: a tidy layout, top
 * down (leaves side by side in visiting order, each parent centred over its
 * children and the moves its cutoff skipped). Pure: tree.js draws what it
 * returns, tests/js/layout.test.js checks it in Node. */

/** @typedef {import("./trace.js").Indexed} Indexed */

/** A node's box and the gaps between boxes, in tree units. */
export const BOX_W = 78, BOX_H = 46, GAP_X = 10, GAP_Y = 34;

/**
 * What to draw, in drawing order (each node after its subtree and the moves its cutoff skipped).
 * @typedef {{kind: "node", id: number, x: number, y: number} | {kind: "pruned", move: string, x: number, y: number}} Item
 *   x is the centre, y the top of the box
 * @typedef {{x1: number, y1: number, x2: number, y2: number, pruned: boolean}} Edge
 * @typedef {{items: Item[], edges: Edge[], size: {w: number, h: number}}} Layout
 */

/**
 * Lay out the nodes under the open ones (`open`: the ids whose children show), with the skipped moves of each
 * cutoff (`pruned`: node id -> move names) hung under an open node or a leaf.
 * @param {Indexed} ix @param {Set<number>} open @param {Map<number, string[]>} pruned @returns {Layout}
 */
export function layoutTree(ix, open, pruned) {
  /** @type {Item[]} */
  const items = [];
  /** @type {Edge[]} */
  const edges = [];
  let nextX = 0, maxY = 0;
  /** @param {number} id @returns {number} the x of the node's centre */
  const place = (id) => {
    const y = ix.level[id] * (BOX_H + GAP_Y);
    maxY = Math.max(maxY, y);
    const kids = open.has(id) ? ix.children[id] : [];
    const xs = kids.map(place);
    const skipped = open.has(id) || !ix.children[id].length ? pruned.get(id) : undefined;
    /** @type {number[]} */
    const prunedXs = [];
    if (skipped) for (let k = 0; k < skipped.length; k++) { prunedXs.push(nextX + BOX_W / 2); nextX += BOX_W * 0.6 + GAP_X; }
    let x;
    if (xs.length || prunedXs.length) {
      const all = xs.concat(prunedXs);
      x = (all[0] + all[all.length - 1]) / 2;
    } else { x = nextX + BOX_W / 2; nextX += BOX_W + GAP_X; }
    for (const cx of xs) edges.push({ x1: x, y1: y + BOX_H, x2: cx, y2: y + BOX_H + GAP_Y, pruned: false });
    (skipped || []).forEach((move, k) => {
      const cx = prunedXs[k], cy = y + BOX_H + GAP_Y;
      edges.push({ x1: x, y1: y + BOX_H, x2: cx, y2: cy, pruned: true });
      items.push({ kind: "pruned", move, x: cx, y: cy });
    });
    items.push({ kind: "node", id, x, y });
    return x;
  };
  for (const root of ix.roots) { place(root); nextX += GAP_X * 2; }
  return { items, edges, size: { w: Math.max(nextX, BOX_W), h: maxY + BOX_H * 1.8 + GAP_Y } };
}
