// @ts-check
/* The engine's worker: a LocalEngine in a Web Worker (the browser) or a worker thread (Node), answering
 * engine.js's messages. In: {setup: {base, data, stop}} once, then {id, operation, args}. Out: {id, result},
 * {id, error: {name, message}} or {id, progress}. */

import { LocalEngine } from "./local.js";
import { IS_NODE, nodeModule } from "./node.js";

/** @type {LocalEngine | null} */
let engine = null;

/** @param {(message: any) => void} send @returns {(data: any) => void} */
function handler(send) {
  return (data) => {
    if (data.setup) { engine = new LocalEngine(data.setup); return; }
    const { id, operation, args } = data;
    /** @type {LocalEngine} */ (engine).run(operation, args, (progress) => send({ id, progress })).then(
      (result) => send({ id, result }),
      (error) => send({ id, error: { name: error && error.name || "Error", message: error && error.message || String(error) } }),
    );
  };
}

if (!IS_NODE) {
  const onMessage = handler((message) => self.postMessage(message));
  self.onmessage = (event) => onMessage(event.data);
} else {
  const { parentPort } = await nodeModule("node:worker_threads");
  if (parentPort) {
    const port = parentPort;
    port.on("message", handler((/** @type {any} */ message) => port.postMessage(message)));
  }
}
