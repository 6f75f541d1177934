/**
 * A signed-in device's name from its User-Agent header, in words ("Firefox on Linux"): browsers
 * send long strings naming several engines for compatibility, so the order of the checks matters
 * (Edge and Opera say "Chrome", Chrome says "Safari"). Anything unrecognised keeps its own
 * text, shortened.
 */

const LONGEST_RAW = 60;

/** Browsers, the most specific first; the token each one adds to the string. */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:(?:Headless)?Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** Systems, the most specific first (Android says "Linux", iOS says "like Mac OS X"). */
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** Command-line and library clients name themselves first: `curl/8.5.0`, `python-requests/2.31`. */
const TOOL = /^(curl|Wget|HTTPie|python-requests|Python-urllib|okhttp|node-fetch|undici|Go-http-client|axios)\//i;

const first = (table: [RegExp, string][], userAgent: string) => table.find(([pattern]) => pattern.test(userAgent))?.[1];

export function deviceName(userAgent: string | undefined | null): string {
  const text = userAgent?.trim();
  if (!text) return 'Unknown device';
  const tool = TOOL.exec(text);
  if (tool) return tool[1]!;
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser) return system ? `${browser} on ${system}` : browser;
  return text.length > LONGEST_RAW ? `${text.slice(0, LONGEST_RAW - 1)}…` : text;
}
