// The pages' icon, /favicon.ico: the product's mark (a check in a rounded square, the colour of
// COMPLIANT) drawn here as a 32 × 32 bitmap, so the server ships no binary file and the drawing
// says what it is. Browsers ask for /favicon.ico whether a page names it or not; every page names it.

const SIZE = 32;
/** Samples per pixel side: the edges are smoothed by the share of samples inside the shape. */
const SAMPLES = 4;
const SQUARE = { inset: 1, radius: 7, colour: [0x1b, 0x5e, 0x20] as const };
const CHECK = {
  points: [
    [8.5, 16.5],
    [13.5, 21.5],
    [23.5, 10.5],
  ] as const,
  halfWidth: 2,
  colour: [0xff, 0xff, 0xff] as const,
};

function insideSquare(x: number, y: number): boolean {
  const { inset, radius } = SQUARE;
  const low = inset + radius;
  const high = SIZE - inset - radius;
  const dx = Math.max(low - x, 0, x - high);
  const dy = Math.max(low - y, 0, y - high);
  return x >= inset && x <= SIZE - inset && y >= inset && y <= SIZE - inset && dx * dx + dy * dy <= radius * radius;
}

function distanceToSegment(x: number, y: number, [ax, ay]: readonly number[], [bx, by]: readonly number[]): number {
  const length = (bx - ax) ** 2 + (by - ay) ** 2;
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length));
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
}

function onCheck(x: number, y: number): boolean {
  const [first, middle, last] = CHECK.points;
  return Math.min(distanceToSegment(x, y, first, middle), distanceToSegment(x, y, middle, last)) <= CHECK.halfWidth;
}

/** One pixel as [blue, green, red, alpha], its colour the samples' average. */
function pixel(column: number, row: number): number[] {
  let square = 0;
  let check = 0;
  for (let sy = 0; sy < SAMPLES; sy++)
    for (let sx = 0; sx < SAMPLES; sx++) {
      const x = column + (sx + 0.5) / SAMPLES;
      const y = row + (sy + 0.5) / SAMPLES;
      if (!insideSquare(x, y)) continue;
      square++;
      if (onCheck(x, y)) check++;
    }
  if (square === 0) return [0, 0, 0, 0];
  const mix = (channel: number) =>
    Math.round((CHECK.colour[channel] * check + SQUARE.colour[channel] * (square - check)) / square);
  return [mix(2), mix(1), mix(0), Math.round((255 * square) / SAMPLES ** 2)];
}

/** The icon as an ICO file: one 32-bit bitmap, its rows bottom-up, and the (unused, all clear) 1-bit mask. */
function iconFile(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++)
    for (let column = 0; column < SIZE; column++)
      pixels.set(pixel(column, row), ((SIZE - 1 - row) * SIZE + column) * 4);
  const mask = Buffer.alloc((SIZE / 8) * SIZE);
  const bitmapInfo = Buffer.alloc(40);
  bitmapInfo.writeUInt32LE(40, 0);
  bitmapInfo.writeInt32LE(SIZE, 4);
  // An icon's bitmap is as tall as its colours and its mask together.
  bitmapInfo.writeInt32LE(SIZE * 2, 8);
  bitmapInfo.writeUInt16LE(1, 12);
  bitmapInfo.writeUInt16LE(32, 14);
  bitmapInfo.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([bitmapInfo, pixels, mask]);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}

export const FAVICON = iconFile();
