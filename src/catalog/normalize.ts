/** "A feat. B", "A ft B", "A featuring B": the credit after the marker is a guest, not the artist. */
const ARTIST_FEATURING = /\s+(?:feat\.?|ft\.?|featuring)\s+.*$/i;
/** "Song (feat. B)", "Song [ft. B]", "Song (with B)": guest credits inside a title. */
const TITLE_FEATURING = /\s*[([]\s*(?:feat\.?|ft\.?|featuring|with)\s+[^)\]]*[)\]]/gi;
const TRAILING_TITLE_FEATURING = /\s+(?:feat\.?|ft\.?|featuring)\s+.*$/i;

/** Case, accents, punctuation and spacing folded away; empty only for empty input. */
function fold(value: string): string {
  const folded = value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  // Names made only of punctuation ("...", "!!!") still need a key of their own.
  return folded || value.trim().toLowerCase();
}

/** Collapses runs of white space; the display form of submitted text. */
export function cleanText(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** The main artist of a credit: "Daft Punk feat. Pharrell" → "Daft Punk". */
export function primaryArtist(credit: string): string {
  return cleanText(credit).replace(ARTIST_FEATURING, '') || cleanText(credit);
}

export function artistKey(credit: string): string {
  return fold(primaryArtist(credit));
}

export function titleKey(title: string): string {
  const cleaned = cleanText(title);
  return fold(cleaned.replace(TITLE_FEATURING, '').replace(TRAILING_TITLE_FEATURING, '') || cleaned);
}

export function albumKey(album: string): string {
  return fold(album);
}
