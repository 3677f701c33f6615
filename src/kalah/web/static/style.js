// @ts-check
/* The board's sizes and colours (kalah/rules/board.json, served as
 * /static/board.json), loaded once for the pages' boards (createBoard's
 * `style` option). The notebook gets the same file from the kernel. */

/** @type {import("./geometry.js").BoardStyle} */
export const STYLE = await (await fetch(new URL("./board.json", import.meta.url))).json();
