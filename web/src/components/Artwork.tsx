/**
 * A cover or picture, or, when there is none (or it fails to load), a placeholder made from the
 * name: its initials on a colour derived from it, the same for the same name everywhere, so an
 * album without art is still recognisable at a glance rather than one more grey square.
 */
import { useState } from 'react';

/** Up to two initials: of the first two words, or the first two letters of a single word. */
export function artworkInitials(name: string): string {
  const words = name.match(/[\p{L}\p{N}]+/gu) ?? [];
  const letters = words.length > 1 ? words.slice(0, 2).map((word) => [...word][0]) : [...(words[0] ?? '')].slice(0, 2);
  return letters.join('').toLocaleUpperCase() || '♪';
}

/** A hue (0–359) from the name's characters, case-insensitive: one name, one colour. */
export function artworkHue(name: string): number {
  let hash = 0;
  for (const char of name.toLocaleLowerCase()) hash = (hash * 31 + char.codePointAt(0)!) % 360;
  return hash;
}

/**
 * Dark enough for white initials at every hue: at 45% saturation, 30% lightness keeps the contrast at
 * 5.3:1 or more (yellow is the worst), over WCAG's 4.5:1 for small text, on light and dark themes alike.
 */
export const artworkColour = (name: string) => `hsl(${artworkHue(name)} 45% 30%)`;

export function Artwork({ src, name, size = 40 }: { src?: string | undefined; name: string; size?: number }) {
  const [failed, setFailed] = useState<string>();
  if (src && failed !== src) {
    return <img className="art" src={src} alt="" width={size} height={size} loading="lazy" onError={() => setFailed(src)} />;
  }
  return (
    <span className="art art-placeholder" aria-hidden="true" style={{ backgroundColor: artworkColour(name), fontSize: Math.round(size * 0.38) }}>
      {artworkInitials(name)}
    </span>
  );
}
