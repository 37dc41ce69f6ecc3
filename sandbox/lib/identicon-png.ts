import { squarePng } from './png.js';

/**
 * A user's or group's avatar as a small PNG identicon: a 5×5 left-right symmetric pattern in one
 * colour, drawn from a hash of the name. Chat products store bitmap avatars, and a browser decodes
 * a bitmap off its main thread, where an SVG picture is a whole document built on it: a page of a
 * hundred users with SVG avatars cost the list more to show than the rows themselves.
 */

const GRID = 5;
const SCALE = 8;
const MARGIN = 4;
const SIZE = GRID * SCALE + 2 * MARGIN;
const BACKGROUND: readonly [number, number, number] = [240, 242, 245];

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** `hash` picks the cells (15 bits) and `colour` (#rrggbb) fills them; the same inputs give the same bytes. */
export function identiconPng(hash: number, colour: string): Buffer {
  const on = (x: number, y: number) => {
    const column = x < 3 ? x : GRID - 1 - x;
    return ((hash >>> (column * GRID + y)) & 1) === 1;
  };
  // A two-colour palette image: one byte a pixel after each row's filter byte.
  const raw = Buffer.alloc(SIZE * (SIZE + 1));
  for (let py = 0; py < SIZE; py++) {
    const row = py * (SIZE + 1);
    for (let px = 0; px < SIZE; px++) {
      const gx = Math.floor((px - MARGIN) / SCALE);
      const gy = Math.floor((py - MARGIN) / SCALE);
      const inside = px >= MARGIN && py >= MARGIN && gx < GRID && gy < GRID;
      raw[row + 1 + px] = inside && on(gx, gy) ? 1 : 0;
    }
  }
  return squarePng(SIZE, raw, Buffer.from([...BACKGROUND, ...rgb(colour)]));
}
