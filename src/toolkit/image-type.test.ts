import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seededPicker } from './fuzz-testing.ts';
import { imageType, type ImageType } from './image-type.ts';
import { testJpeg, testPng } from '../core/library/test-music.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** The smallest heads of each allowed format, as their specifications start them. */
const HEADS: Record<ImageType, Buffer[]> = {
  'image/jpeg': [bytes([0xff, 0xd8, 0xff, 0xe0]), bytes([0xff, 0xd8, 0xff, 0xdb]), bytes([0xff, 0xd8, 0xff, 0xe1])],
  'image/png': [bytes([0x89], 'PNG\r\n\x1a\n')],
  'image/gif': [bytes('GIF87a'), bytes('GIF89a')],
  'image/webp': [bytes('RIFF', be32(0).reverse(), 'WEBPVP8 '), bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8L'), bytes('RIFF', [9, 9, 9, 9], 'WEBPVP8X')],
  'image/avif': [
    bytes(be32(32), 'ftypavif', [0, 0, 0, 0], 'mif1miafMA1Bavif'),
    bytes(be32(28), 'ftypavis', [0, 0, 0, 0], 'msf1miafavif'),
    // libheif and some encoders put mif1 first and AVIF among the compatible brands.
    bytes(be32(24), 'ftypmif1', [0, 0, 0, 0], 'mif1avif'),
  ],
};

/**
 * The specification restated as the test reads it, independently of the module: is the input
 * one of the allowed formats by its leading bytes, and which.
 */
function specified(input: Buffer): ImageType | null {
  const text = (start: number, end: number) => input.subarray(start, end).toString('latin1');
  if (input.length >= 3 && input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff) return 'image/jpeg';
  if (input.subarray(0, 8).equals(bytes([0x89], 'PNG\r\n\x1a\n'))) return 'image/png';
  if (text(0, 6) === 'GIF87a' || text(0, 6) === 'GIF89a') return 'image/gif';
  if (text(0, 4) === 'RIFF' && /^WEBPVP8[ LX]$/.test(text(8, 16))) return 'image/webp';
  if (input.length >= 16 && text(4, 8) === 'ftyp') {
    const size = input.readUInt32BE(0);
    if (size >= 16 && size <= 256 && size % 4 === 0) {
      const brands = [text(8, 12)];
      for (let at = 16; at + 4 <= Math.min(size, input.length); at += 4) brands.push(text(at, at + 4));
      if (brands.includes('avif') || brands.includes('avis')) return 'image/avif';
    }
  }
  return null;
}

describe('image type from leading bytes', () => {
  test('each allowed format is told by its signature, whatever follows', () => {
    for (const [type, heads] of Object.entries(HEADS)) {
      for (const head of heads) {
        assert.equal(imageType(head), type, head.toString('latin1'));
        assert.equal(imageType(Buffer.concat([head, Buffer.from('<script>alert(1)</script>')])), type);
      }
    }
    assert.equal(imageType(testPng('real')), 'image/png');
    assert.equal(imageType(testJpeg('real')), 'image/jpeg');
  });

  test('HTML, SVG, XML, BMP, PDF, text, empty and cut-short signatures are not images', () => {
    const refused = [
      '',
      '<!DOCTYPE html><script>document.title="pwned"</script>',
      '<html><body onload="alert(1)">',
      '\uFEFF<html><script>alert(1)</script>',
      '   \n<script>alert(1)</script>',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00',
      '%PDF-1.7',
      'just some text about an album',
      'GIF87b',
      'GIF8',
      'RIFF\x00\x00\x00\x00WAVEfmt ',
      'RIFF\x00\x00\x00\x00WEBPVP9 ',
      '\x00\x00\x00\x20ftypisom\x00\x00\x00\x00isomiso2mp41',
      '\x00\x00\x00\x20ftypheic\x00\x00\x00\x00mif1heic',
    ];
    for (const text of refused) assert.equal(imageType(Buffer.from(text, 'latin1')), null, JSON.stringify(text));
    // One byte short of each signature.
    for (const cut of [bytes([0xff, 0xd8]), bytes([0x89], 'PNG\r\n\x1a'), bytes('GIF89'), bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8'), bytes(be32(16), 'ftypavi')]) {
      assert.equal(imageType(cut), null, cut.toString('latin1'));
    }
    // An ftyp box claiming an absurd size, or one not made of whole brands, is not AVIF.
    assert.equal(imageType(bytes(be32(4096), 'ftypavif', [0, 0, 0, 0])), null);
    assert.equal(imageType(bytes(be32(18), 'ftypavif', [0, 0, 0, 0, 0, 0])), null);
    assert.equal(imageType(bytes(be32(8), 'ftypavif', [0, 0, 0, 0])), null);
  });

  test('property: no input outside the signatures is ever an image, and every input inside one is that image', () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261126);
    const { int, pick, next } = seededPicker(seed);
    const allHeads = Object.values(HEADS).flat();
    const interesting = [
      0x00,
      0xff,
      0xd8,
      0x89,
      0x47,
      0x49,
      0x46,
      0x38,
      0x37,
      0x39,
      0x61,
      ...Buffer.from('<>RIFFWEBPVP8 LXftypavifavismif1PNG\r\n\x1a\n', 'latin1'),
    ];
    const randomBytes = (length: number) => Buffer.from(Array.from({ length }, () => (next() < 0.5 ? pick(interesting) : int(256))));
    const inputs: Buffer[] = [];
    for (let i = 0; i < 20_000; i++) {
      const kind = int(4);
      if (kind === 0) {
        // Anything at all, biased toward the bytes signatures are made of.
        inputs.push(randomBytes(int(40)));
      } else {
        const head = Buffer.from(pick(allHeads));
        const tail = randomBytes(int(24));
        if (kind === 1) {
          // A signature with one byte changed: almost always outside, sometimes (a free byte) still inside.
          head[int(head.length)] = int(256);
        } else if (kind === 2) {
          // A signature cut short, with other bytes after.
          inputs.push(Buffer.concat([head.subarray(0, int(head.length)), tail]));
          continue;
        }
        inputs.push(Buffer.concat([head, tail]));
      }
    }
    let images = 0;
    for (const input of inputs) {
      const expected = specified(input);
      const told = imageType(input);
      assert.equal(told, expected, `seed ${seed}: ${input.toString('hex')}`);
      if (told !== null) images++;
    }
    // The generator reached both sides of the line.
    assert.ok(images > 1000 && images < inputs.length - 1000, `${images} of ${inputs.length} were images`);
  });
});
