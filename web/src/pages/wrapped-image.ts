/**
 * "Save as image": the Wrapped drawn onto a canvas by hand and downloaded as a PNG. Drawing it
 * ourselves (rather than copying the page) needs no library, keeps the picture the same at any
 * screen width, and never taints the canvas with other sites' cover images (those are left out).
 */
import { fillDays, formatDay, formatHour, formatMinutes, monthSeries, utcDayRange, type WrappedData } from './stats.ts';

const WIDTH = 1080;
const HEIGHT = 1620;
const PAD = 64;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

interface Palette {
  bg: string;
  fg: string;
  muted: string;
  card: string;
  line: string;
  accent: string;
  accentFg: string;
}

/** The page's own colours (light or dark, as shown). */
function palette(): Palette {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    bg: read('--bg', '#fbfbfd'),
    fg: read('--fg', '#16161d'),
    muted: read('--muted', '#5d5d70'),
    card: read('--card', '#ffffff'),
    line: read('--line', '#dedeea'),
    accent: read('--accent', '#5b4bdb'),
    accentFg: read('--accent-fg', '#ffffff'),
  };
}

/** `text` cut with an ellipsis to fit `width` in the current font. */
function fit(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

function font(ctx: CanvasRenderingContext2D, size: number, weight = 400) {
  ctx.font = `${weight} ${size}px ${FONT}`;
}

function tile(ctx: CanvasRenderingContext2D, colors: Palette, x: number, y: number, w: number, h: number, label: string, value: string) {
  ctx.fillStyle = colors.card;
  ctx.strokeStyle = colors.line;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, 18);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = colors.muted;
  font(ctx, 24);
  ctx.fillText(fit(ctx, label, w - 40), x + 20, y + 40);
  ctx.fillStyle = colors.fg;
  // The largest size (40 px down to 26 px) at which the value fits whole.
  let size = 40;
  for (font(ctx, size, 700); size > 26 && ctx.measureText(value).width > w - 40; size -= 2) font(ctx, size - 2, 700);
  ctx.fillText(fit(ctx, value, w - 40), x + 20, y + 92);
}

/** A numbered top list of up to five rows under its title at `y`. */
function list(ctx: CanvasRenderingContext2D, colors: Palette, x: number, y: number, w: number, title: string, rows: { name: string; count: number }[]) {
  ctx.fillStyle = colors.accent;
  font(ctx, 28, 700);
  ctx.fillText(title, x, y);
  if (rows.length === 0) {
    ctx.fillStyle = colors.muted;
    font(ctx, 24);
    ctx.fillText('None', x, y + 50);
    return;
  }
  rows.slice(0, 5).forEach((row, i) => {
    const line = y + 52 + i * 46;
    const count = row.count.toLocaleString();
    font(ctx, 24, 600);
    const countWidth = ctx.measureText(count).width;
    ctx.fillStyle = colors.muted;
    ctx.fillText(count, x + w - countWidth, line);
    font(ctx, 26, i === 0 ? 700 : 400);
    ctx.fillStyle = colors.fg;
    ctx.fillText(fit(ctx, `${i + 1}. ${row.name}`, w - countWidth - 16), x, line);
  });
}

/** Month bars, or for windows of three months or less day bars (UTC days, as scrobblesPerDay counts them). */
function series(data: WrappedData, timeZone: string): { title: string; points: { label: string; count: number }[] } {
  const months = monthSeries(data.scrobblesPerMonth, data.startDate, timeZone);
  if (months.length > 3)
    return { title: 'Plays per month', points: months.map((m) => ({ label: formatDay(`${m.month}-01`, { month: 'short' }), count: m.count })) };
  const range = utcDayRange(data.startDate, data.endDate);
  const days = fillDays(data.scrobblesPerDay, range.start, range.end);
  return { title: 'Plays per day (UTC)', points: days.map((d) => ({ label: formatDay(d.date, { month: 'short', day: 'numeric' }), count: d.count })) };
}

function bars(
  ctx: CanvasRenderingContext2D,
  colors: Palette,
  title: string,
  points: { label: string; count: number }[],
  x: number,
  y: number,
  w: number,
  h: number,
) {
  ctx.fillStyle = colors.accent;
  font(ctx, 28, 700);
  ctx.fillText(title, x, y);
  const top = y + 24;
  const chartHeight = h - 70;
  const most = Math.max(1, ...points.map((p) => p.count));
  const slot = w / Math.max(1, points.length);
  // Labels at most every ~90 px, so they never overlap.
  const every = Math.max(1, Math.ceil(90 / slot));
  font(ctx, 20);
  points.forEach((point, i) => {
    const barHeight = Math.max(point.count > 0 ? 3 : 0, (chartHeight * point.count) / most);
    ctx.fillStyle = colors.accent;
    ctx.beginPath();
    ctx.roundRect(x + i * slot + slot * 0.15, top + chartHeight - barHeight, slot * 0.7, barHeight, Math.min(6, slot * 0.3));
    ctx.fill();
    if (i % every !== 0) return;
    ctx.fillStyle = colors.muted;
    const width = ctx.measureText(point.label).width;
    ctx.fillText(point.label, Math.max(x, Math.min(x + w - width, x + i * slot + (slot - width) / 2)), top + chartHeight + 30);
  });
}

/** The whole picture. */
export function drawWrapped(canvas: HTMLCanvasElement, data: WrappedData, text: { title: string; subtitle: string }, timeZone: string): void {
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw images (no canvas); try another browser.');
  const colors = palette();
  ctx.fillStyle = colors.bg;
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.textBaseline = 'alphabetic';

  ctx.fillStyle = colors.accent;
  ctx.fillRect(0, 0, WIDTH, 280);
  ctx.fillStyle = colors.accentFg;
  font(ctx, 28, 600);
  ctx.fillText('EARSHOT WRAPPED', PAD, 96);
  font(ctx, 64, 800);
  ctx.fillText(fit(ctx, text.title, WIDTH - 2 * PAD), PAD, 176);
  font(ctx, 30);
  ctx.fillText(fit(ctx, text.subtitle, WIDTH - 2 * PAD), PAD, 232);

  const figures: [string, string][] = [
    ['Plays', data.totalScrobbles.toLocaleString()],
    ['Listening time', formatMinutes(data.totalListeningTimeMinutes)],
    ['New artists', data.newArtistsCount.toLocaleString()],
    ['Longest streak', `${data.longestStreak} ${data.longestStreak === 1 ? 'day' : 'days'}`],
    ['Most active day', data.mostActiveDay ? formatDay(data.mostActiveDay.date) : '–'],
    ['Most active hour', formatHour(data.mostActiveHour)],
  ];
  const tileWidth = (WIDTH - 2 * PAD - 2 * 24) / 3;
  figures.forEach(([label, value], i) => tile(ctx, colors, PAD + (i % 3) * (tileWidth + 24), 320 + Math.floor(i / 3) * 144, tileWidth, 120, label, value));

  const column = (WIDTH - 2 * PAD - 48) / 2;
  const right = PAD + column + 48;
  list(
    ctx,
    colors,
    PAD,
    660,
    column,
    'Top artists',
    data.topArtists.map((a) => ({ name: a.name, count: a.playCount })),
  );
  list(
    ctx,
    colors,
    right,
    660,
    column,
    'Top songs',
    data.topTracks.map((t) => ({ name: `${t.title} – ${t.artist}`, count: t.playCount })),
  );
  list(
    ctx,
    colors,
    PAD,
    960,
    column,
    'Top albums',
    data.topAlbums.map((a) => ({ name: `${a.title} – ${a.artist}`, count: a.playCount })),
  );
  list(
    ctx,
    colors,
    right,
    960,
    column,
    'Top genres',
    data.topGenres.map((g) => ({ name: g.genre, count: g.count })),
  );

  const chart = series(data, timeZone);
  bars(ctx, colors, chart.title, chart.points, PAD, 1270, WIDTH - 2 * PAD, 280);

  ctx.fillStyle = colors.muted;
  font(ctx, 22);
  if (data.firstScrobble)
    ctx.fillText(fit(ctx, `First play: ${data.firstScrobble.trackTitle} – ${data.firstScrobble.artistName}`, WIDTH - 2 * PAD), PAD, HEIGHT - 28);
}

/** Draws the Wrapped and hands the browser a PNG to download. */
export async function saveWrappedImage(data: WrappedData, text: { title: string; subtitle: string; fileName: string }, timeZone: string): Promise<void> {
  const canvas = document.createElement('canvas');
  drawWrapped(canvas, data, text, timeZone);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The image could not be made in this browser.');
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = text.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
