// @ts-check
/* Where the engine runs under Node (its tests, scripts) rather than in a browser: Node's own modules,
 * reached without naming them to the browser's module loader or to the type checker. */

const node = /** @type {any} */ (globalThis).process;

/** True under Node. */
export const IS_NODE = typeof node === "object" && !!node && typeof node.versions === "object" && !!node.versions.node;

/** One of Node's modules ("node:fs", "node:worker_threads"). @param {string} name @returns {Promise<any>} */
export function nodeModule(name) {
  return import(name);
}

/** Node's working folder, as a file URL ending in a slash. @returns {string} */
export function workingFolder() {
  return `file://${node.cwd()}/`;
}
