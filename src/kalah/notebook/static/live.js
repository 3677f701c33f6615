// A board of the notebook's widgets: the browser page's own board component
// (web/static/board.js, one instance per widget) with the players' names above
// and below it and news of the moves over it. The kernel sends each position as
// the `view` trait (kalah.notebook.widgets._view); a position one move on from
// the one shown is animated seed by seed, as on the page.

import { effectMarks } from "../../web/static/anim.js";
import { createBoard } from "../../web/static/board.js";

const SVGNS = "http://www.w3.org/2000/svg";
/** Milliseconds per seed of an animated move. */
const STEP_MS = 110;

/** @param {string} className @returns {HTMLDivElement} */
function div(className) {
  return Object.assign(document.createElement("div"), { className });
}

/**
 * A live board in `parent`, drawn from `model`'s `view`, `names` and `style`.
 * @param {HTMLElement} parent @param {any} model
 * @param {{bottom: number, onPit?: (pit: number) => void}} options
 * @returns {{svg: SVGSVGElement, update: () => Promise<void>}}
 */
export function liveBoard(parent, model, options) {
  const top = div("kalah-live-name top"), bottom = div("kalah-live-name bottom");
  const stage = div("kalah-live-stage");
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVGNS, "svg"));
  svg.setAttribute("class", "board");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "Kalah board");
  const news = div("kalah-live-news");
  news.hidden = true;
  stage.append(svg, news);
  parent.append(top, stage, bottom);

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @param {string} text @param {string} kind @param {number} [ms] */
  const banner = (text, kind, ms) => {
    news.textContent = text;
    news.className = `kalah-live-news ${kind}`;
    news.hidden = !text;
    clearTimeout(timer);
    if (ms) timer = setTimeout(() => { news.hidden = true; }, ms);
  };
  const board = createBoard(svg, { style: model.get("style"), bottom: options.bottom, onPit: options.onPit,
    animMs: () => STEP_MS, onBanner: banner });

  /** The names, each with its store and a mark on the side to move. @param {any} view */
  function labels(view) {
    const names = model.get("names"), m = view.board[0].length - 1;
    for (const [label, player] of /** @type {[HTMLElement, number][]} */ ([[bottom, options.bottom], [top, 1 - options.bottom]])) {
      label.textContent = `${names[player]} (${view.board[player][m]})` + (!view.over && view.to_move === player ? " ●" : "");
    }
  }

  /** @type {any} */
  let shown = null;
  /** @param {any} view */
  async function show(view) {
    const stepped = shown && view.last && view.moves === shown.moves + 1;
    if (!view.result) banner("", "");
    if (stepped) {
      labels({ ...view, board: view.last.before, to_move: view.last.player, over: false });
      await board.animate(view.last, view.board, view.to_move, view.over, { legal: view.legal });
    } else {
      board.draw(view.board, view.to_move, view.over, { legal: view.legal, marks: effectMarks(view.last) });
    }
    shown = view;
    labels(view);
    if (view.result) banner(view.result, "result");
  }

  // Positions arrive faster than they are animated (the computer's extra turns): one after the other.
  let queue = Promise.resolve();
  return { svg, update: () => { const view = model.get("view"); queue = queue.then(() => show(view)); return queue; } };
}
