// Runs cases on the WebAssembly engine, in order, in one engine of this thread, and prints the answers as
// JSON (one list, in the cases' order): tests/test_wasm_engine.py compares them with the native engine's,
// and benchmarks/bench_wasm.py times the searches.
//
//   node tests/wasm/run_cases.mjs CASES.json
//
// A case is {kind, position, ...}: "search" (options: kalah.search's), "trace" (request: the lab's),
// "mcts_trace" (request), "solve" (options), "analyse" (options), "play" (moves: the positions and effects
// along them), "facts" (parent, move, cutoff: the lab's tree facts), "choose" (spec, game).
import { readFileSync } from "node:fs";
import { LocalEngine } from "../../src/kalah/web/static/engine/local.js";
import { Position } from "../../src/kalah/web/static/engine/rules.js";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const engine = new LocalEngine({
  base: new URL("../../src/kalah/web/static/engine/", import.meta.url),
  data: new URL("../../src/kalah/book/data/", import.meta.url),
});

/** @param {any} item */
async function answer(item) {
  switch (item.kind) {
    case "search": return engine.run("search", [item.position, item.options]);
    case "trace": return engine.run("trace", [item.position, item.request]);
    case "mcts_trace": return engine.run("traceMcts", [item.position, item.request]);
    case "solve": return engine.run("solve", [item.position, item.options]);
    case "analyse": return engine.run("analyse", [item.position, item.options]);
    case "choose": return engine.run("choose", [item.spec, item.position, item.game]);
    case "facts": return engine.run("treeFacts", [item.position, item.parent, item.move, item.cutoff]);
    case "play": {
      let position = Position.fromJSON(item.position);
      const steps = [];
      for (const move of item.moves) {
        const legal = position.legalMoves();
        const [after, effect] = position.playExplained(move);
        steps.push({ legal, effect, after: after.toJSON(), over: after.is_over, margin: after.margin });
        position = after;
      }
      return steps;
    }
    default: throw new Error(`unknown case kind ${item.kind}`);
  }
}

const answers = [];
for (const item of cases) {
  try {
    answers.push(await answer(item));
  } catch (error) {
    answers.push({ error: `${error.name}: ${error.message}` });
  }
}
process.stdout.write(JSON.stringify(answers));
