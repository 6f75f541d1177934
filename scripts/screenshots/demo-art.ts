/**
 * Cover pictures for the screenshot demo: a 256 × 256 PNG per album, a diagonal blend of two
 * colours taken from the album's name, so every cover differs and none is a real record's art.
 */
import { deflateSync } from 'node:zlib';
import { crc32 } from '../../src/core/library/test-music.ts';

const SIZE = 256;

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An HSL colour as RGB bytes. */
function hsl(hue: number, saturation: number, lightness: number): [number, number, number] {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

export function demoCover(name: string): Uint8Array {
  const seed = crc32(new TextEncoder().encode(name));
  const from = hsl(seed % 360, 0.65, 0.45);
  const to = hsl((seed + 70 + ((seed >>> 9) % 90)) % 360, 0.7, 0.25);
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 3);
    for (let x = 0; x < SIZE; x++) {
      // A diagonal blend with a soft circle, so covers read as pictures rather than flat squares.
      const dx = x - SIZE * 0.62;
      const dy = y - SIZE * 0.38;
      const ring = Math.max(0, 1 - Math.abs(Math.sqrt(dx * dx + dy * dy) - SIZE * 0.22) / 14) * 0.35;
      const t = Math.min(1, (x + y) / (2 * SIZE) + ring);
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.round(from[c]! * (1 - t) + to[c]! * t);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', new Uint8Array()),
  ]);
}
