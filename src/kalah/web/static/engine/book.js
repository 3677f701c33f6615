// @ts-check
/* The opening books that ship with kalah (kalah.book): the perfect player's solved moves, looked up
 * instead of solved. The files are kalah/book/data/kalah-P-S[-ec][-pie].book.json.gz, read from the
 * engine's data folder (kalah serve serves them there; kalah site build copies them) the first time a
 * position of their variant is looked up; a variant without a book, or a book that cannot be read,
 * answers nothing (the solver and the search do the work).
 */

import { readBytes } from "./core.js";

/** @typedef {import("./rules.js").Position} Position */
/** @typedef {import("./rules.js").Move} Move */
/** @typedef {import("./rules.js").Variant} Variant */

/** What the book says about a position (kalah.book.BookEntry): the perfect player's move, the exact value, every best move.
 * @typedef {{move: Move, value: number, best_moves: Move[]}} BookEntry */

/** The variants that have a book (kalah/book/data/). */
export const BOOK_FILES = ["kalah-6-3", "kalah-6-3-ec", "kalah-6-3-pie", "kalah-6-3-ec-pie", "kalah-6-4", "kalah-6-4-ec", "kalah-6-5"];

/** The file name of a variant's book (kalah.book.book_filename). @param {Variant} variant @returns {string} */
export function bookName(variant) {
  const flags = (variant.empty_capture ? "-ec" : "") + (variant.pie_rule ? "-pie" : "");
  return `kalah-${variant.pits}-${variant.seeds}${flags}`;
}

/** Gzip-compressed bytes, decompressed (the browsers' and Node's DecompressionStream). @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>} */
export async function gunzip(bytes) {
  const stream = new Blob([/** @type {BlobPart} */ (/** @type {unknown} */ (bytes))]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The books of one thread, each read once. */
export class Books {
  /** @param {URL | string | null} data the folder of the book files (null: no books) */
  constructor(data) {
    this.data = data;
    /** @type {Map<string, Promise<Record<string, [Move, number, Move[]]> | null>>} */
    this.loaded = new Map();
  }

  /** The entries of a variant's book, or null. @param {Variant} variant */
  entries(variant) {
    const name = bookName(variant);
    if (!this.data || !BOOK_FILES.includes(name)) return Promise.resolve(null);
    let found = this.loaded.get(name);
    if (!found) {
      found = readBytes(new URL(`${name}.book.json.gz`, this.data))
        .then(gunzip)
        .then((bytes) => {
          const book = JSON.parse(new TextDecoder().decode(bytes));
          return book && book.format === "kalah-book" && book.entries && typeof book.entries === "object" ? book.entries : null;
        })
        .catch(() => null);  // no book here: the solver does the work
      this.loaded.set(name, found);
    }
    return found;
  }

  /** The book's entry of `position`, or null. @param {Position} position @returns {Promise<BookEntry | null>} */
  async lookup(position) {
    const entries = await this.entries(position.variant);
    const item = entries ? entries[position.key()] : undefined;
    if (!Array.isArray(item) || item.length !== 3) return null;
    const [move, value, best] = item;
    const legal = position.legalMoves();
    if (!legal.includes(move) || !Array.isArray(best) || !best.every((m) => legal.includes(m))) return null;
    return { move, value, best_moves: best };
  }

  /** A line of perfect play through the book (kalah.analysis's _book_line): at each position the lowest pit
   * among the best moves. @param {Position} position @returns {Promise<Move[]>} */
  async line(position) {
    /** @type {Move[]} */
    const line = [];
    let entry = await this.lookup(position);
    while (entry && entry.best_moves.length) {
      const legal = position.legalMoves();
      const move = /** @type {Move} */ (legal.find((m) => entry && entry.best_moves.includes(m)));
      line.push(move);
      position = position.play(move);
      entry = await this.lookup(position);
    }
    return line;
  }
}
