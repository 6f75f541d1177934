/**
 * An image's type told from its leading bytes, never from a name, a tag's declared format or a
 * provider's Content-Type: those are whatever a file's author wrote, and a "cover" that is really
 * HTML or SVG, served with the type it claims, runs script on Earshot's origin. Allow-list only:
 * the five formats every browser shows as a picture and none runs script in. Anything else (HTML,
 * SVG, BMP, text, an unknown signature, too few bytes) is not an image. Pure, imports nothing, so
 * every layer that serves or stores a picture (providers, catalog, library, Subsonic) can use it.
 */

export type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/avif';

/** Leading bytes enough for every signature here (an AVIF's brands may sit that far in): read this many before asking. */
export const IMAGE_SIGNATURE_BYTES = 256;

/** The ftyp brands of AVIF: a still picture and an image sequence. */
const AVIF_BRANDS = ['avif', 'avis'];

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, i) => bytes[at + i] === byte);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (bytes.length < at + length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/**
 * ISO-BMFF `ftyp` at the start whose major brand, or one of its compatible brands, is AVIF's:
 * [size:4][ftyp][major:4][minor version:4][compatible:4]…, the size covering the whole box.
 */
function isAvif(bytes: Uint8Array): boolean {
  // The box's fixed part (size, type, major brand, minor version) must be there whole.
  if (bytes.length < 16 || ascii(bytes, 4, 4) !== 'ftyp') return false;
  const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  if (size < 16 || size > IMAGE_SIGNATURE_BYTES || size % 4 !== 0) return false;
  if (AVIF_BRANDS.includes(ascii(bytes, 8, 4))) return true;
  const end = Math.min(size, bytes.length);
  for (let at = 16; at + 4 <= end; at += 4) if (AVIF_BRANDS.includes(ascii(bytes, at, 4))) return true;
  return false;
}

/** The image's type from its leading bytes, or null when they are not one of the allowed images. */
export function imageType(bytes: Uint8Array): ImageType | null {
  // JPEG: SOI then the first segment's marker.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // GIF87a, GIF89a.
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  // RIFF <size> WEBP, then its first chunk: VP8 (lossy), VP8L (lossless) or VP8X (extended).
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP' && ['VP8 ', 'VP8L', 'VP8X'].includes(ascii(bytes, 12, 4))) return 'image/webp';
  if (isAvif(bytes)) return 'image/avif';
  return null;
}
