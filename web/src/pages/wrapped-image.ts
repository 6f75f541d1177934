/**
 * "Save as image": the Wrapped drawn onto a canvas by hand and downloaded as a PNG. Drawing it
 * ourselves (rather than copying the page) needs no library, keeps the picture the same at any
 * screen width, and never taints the canvas with other sites' cover images (those are left out).
 */
import { formatDay, formatHour, formatMinutes, monthSeries, type DayCount, type WrappedData } from './stats.ts';
import { ellipsize, wrapText } from './wrapped-image-text.ts';

const WIDTH = 1080;
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
const fit = (ctx: CanvasRenderingContext2D, text: string, width: number) => ellipsize(text, width, (t) => ctx.measureText(t).width);

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

/** Rows of a top list drawn: each name on up to two lines, beside its count. */
interface ListRow {
  lines: string[];
  count: string;
  countWidth: number;
}

const LIST_TITLE = 52;
const ROW_LINE = 30;
const ROW_GAP = 16;
/** Five one-line rows: the least a pair of lists takes, so short lists keep the picture's proportions. */
const LIST_MIN = LIST_TITLE + 5 * (ROW_LINE + ROW_GAP);

const rowFont = (ctx: CanvasRenderingContext2D, i: number) => font(ctx, 26, i === 0 ? 700 : 400);

/** Up to five rows, each name (numbered) wrapped to two lines of the room its count leaves. */
function layoutList(ctx: CanvasRenderingContext2D, w: number, rows: { name: string; count: number }[]): ListRow[] {
  return rows.slice(0, 5).map((row, i) => {
    const count = row.count.toLocaleString();
    font(ctx, 24, 600);
    const countWidth = ctx.measureText(count).width;
    rowFont(ctx, i);
    return { count, countWidth, lines: wrapText(`${i + 1}. ${row.name}`, w - countWidth - 16, (t) => ctx.measureText(t).width) };
  });
}

const listHeight = (rows: ListRow[]) => rows.reduce((height, row) => height + row.lines.length * ROW_LINE + ROW_GAP, LIST_TITLE);

/** A numbered top list under its title at `y`. */
function list(ctx: CanvasRenderingContext2D, colors: Palette, x: number, y: number, w: number, title: string, rows: ListRow[]) {
  ctx.fillStyle = colors.accent;
  font(ctx, 28, 700);
  ctx.fillText(title, x, y);
  if (rows.length === 0) {
    ctx.fillStyle = colors.muted;
    font(ctx, 24);
    ctx.fillText('None', x, y + 50);
    return;
  }
  let line = y + LIST_TITLE;
  rows.forEach((row, i) => {
    font(ctx, 24, 600);
    ctx.fillStyle = colors.muted;
    ctx.fillText(row.count, x + w - row.countWidth, line);
    rowFont(ctx, i);
    ctx.fillStyle = colors.fg;
    for (const text of row.lines) {
      ctx.fillText(text, x, line);
      line += ROW_LINE;
    }
    line += ROW_GAP;
  });
}

/** Month bars, or for windows of three months or less day bars (local days in the zone, when they have come). */
function series(data: WrappedData, days: readonly DayCount[] | undefined, timeZone: string): { title: string; points: { label: string; count: number }[] } {
  const months = monthSeries(data.scrobblesPerMonth, data.startDate, timeZone);
  if (months.length > 3 || !days)
    return { title: 'Plays per month', points: months.map((m) => ({ label: formatDay(`${m.month}-01`, { month: 'short' }), count: m.count })) };
  return { title: 'Plays per day', points: days.map((d) => ({ label: formatDay(d.date, { month: 'short', day: 'numeric' }), count: d.count })) };
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

/** What the picture says besides the Wrapped itself: the title, the subtitle, and the plays per local day. */
export interface WrappedImageText {
  title: string;
  subtitle: string;
  days: readonly DayCount[] | undefined;
}

/** The whole picture: as tall as its top lists need, their long names wrapped to two lines. */
export function drawWrapped(canvas: HTMLCanvasElement, data: WrappedData, text: WrappedImageText, timeZone: string): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw images (no canvas); try another browser.');
  const column = (WIDTH - 2 * PAD - 48) / 2;
  const right = PAD + column + 48;
  const lists = [
    ['Top artists', data.topArtists.map((a) => ({ name: a.name, count: a.playCount }))],
    ['Top songs', data.topTracks.map((t) => ({ name: `${t.title} – ${t.artist}`, count: t.playCount }))],
    ['Top albums', data.topAlbums.map((a) => ({ name: `${a.title} – ${a.artist}`, count: a.playCount }))],
    ['Top genres', data.topGenres.map((g) => ({ name: g.genre, count: g.count }))],
  ] as const;
  // Laid out before the canvas is sized (which resets its state), since the lists decide its height.
  const laid = lists.map(([title, rows]) => ({ title, rows: layoutList(ctx, column, [...rows]) }));
  const firstRow = 660;
  const secondRow = firstRow + Math.max(LIST_MIN, listHeight(laid[0]!.rows), listHeight(laid[1]!.rows)) + 18;
  const chartTop = secondRow + Math.max(LIST_MIN, listHeight(laid[2]!.rows), listHeight(laid[3]!.rows)) + 28;
  const height = chartTop + 350;

  canvas.width = WIDTH;
  canvas.height = height;
  const colors = palette();
  ctx.fillStyle = colors.bg;
  ctx.fillRect(0, 0, WIDTH, height);
  ctx.textBaseline = 'alphabetic';

  ctx.fillStyle = colors.accent;
  ctx.fillRect(0, 0, WIDTH, 280);
  ctx.fillStyle = colors.accentFg;
  font(ctx, 28, 600);
  ctx.fillText('EARSHOT WRAPPED', PAD, 96);
  // The largest size (64 px down to 40 px) at which the title (with a long handle) fits whole.
  let size = 64;
  for (font(ctx, size, 800); size > 40 && ctx.measureText(text.title).width > WIDTH - 2 * PAD; size -= 4) font(ctx, size - 4, 800);
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

  laid.forEach(({ title, rows }, i) => list(ctx, colors, i % 2 === 0 ? PAD : right, i < 2 ? firstRow : secondRow, column, title, rows));

  const chart = series(data, text.days, timeZone);
  bars(ctx, colors, chart.title, chart.points, PAD, chartTop, WIDTH - 2 * PAD, 280);

  ctx.fillStyle = colors.muted;
  font(ctx, 22);
  if (data.firstScrobble)
    ctx.fillText(fit(ctx, `First play: ${data.firstScrobble.trackTitle} – ${data.firstScrobble.artistName}`, WIDTH - 2 * PAD), PAD, height - 28);
}

/** Draws the Wrapped and hands the browser a PNG to download. */
export async function saveWrappedImage(data: WrappedData, text: WrappedImageText & { fileName: string }, timeZone: string): Promise<void> {
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
