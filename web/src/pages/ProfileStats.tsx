/**
 * The profile's statistics (loaded lazily, with Recharts): top artists, albums and songs over a
 * chosen period, and plays per day. Rolling windows and calendar years come from getWrapped (its
 * top lists are 5 artists, 5 songs, 6 albums); all time from the actor's all-time lists, cut to the same lengths.
 * The chart and the listening clock (plays by weekday and hour) ask for the period itself, so the
 * server counts the same window for all three and their totals agree.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { query } from '../api/xrpc.ts';
import { ErrorNote, Loading } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { ListeningClock } from './ListeningClock.tsx';
import { chartQuery, currentYear, DEFAULT_PERIOD, wrappedQuery } from './profile-queries.ts';
import { CountChart, Figure, RankedList, type Ranked } from './stats-parts.tsx';
import {
  ROLLING_DAYS,
  WRAPPED_PERIODS,
  addDays,
  chartRange,
  fillDays,
  formatDay,
  formatHour,
  formatMinutes,
  localDate,
  perMonth,
  wrappedHref,
  type DayCount,
  type ProfilePeriod,
  type WrappedData,
} from './stats.ts';

const PERIODS: { value: ProfilePeriod; label: string }[] = [...WRAPPED_PERIODS, { value: 'all', label: 'All time' }];

interface TopLists {
  artists: Ranked[];
  albums: Ranked[];
  songs: Ranked[];
}

function wrappedTops(data: WrappedData): TopLists {
  return {
    artists: data.topArtists.map((a) => ({ key: a.id, name: a.name, href: `/artists/${a.id}`, art: a.picture, count: a.playCount })),
    albums: data.topAlbums.map((a) => ({ key: a.id, name: a.title, href: `/albums/${a.id}`, detail: a.artist, art: a.albumArt, count: a.playCount })),
    songs: data.topTracks.map((t) => ({ key: t.id, name: t.title, href: `/songs/${t.id}`, detail: t.artist, art: t.albumArt, count: t.playCount })),
  };
}

async function allTimeTops(did: string): Promise<TopLists> {
  const [artists, albums, songs] = await Promise.all([
    query('app.svc.actor.getActorArtists', { did, limit: 5, offset: 0 }),
    query('app.svc.actor.getActorAlbums', { did, limit: 6, offset: 0 }),
    query('app.svc.actor.getActorSongs', { did, limit: 5, offset: 0 }),
  ]);
  return {
    artists: artists.artists.map((a) => ({ key: a.id, name: a.name, href: `/artists/${a.id}`, art: a.picture, count: a.playCount })),
    albums: albums.albums.map((a) => ({ key: a.id, name: a.title, href: `/albums/${a.id}`, detail: a.artist, art: a.albumArt, count: a.playCount })),
    songs: songs.songs.map((s) => ({ key: s.id, name: s.title, href: `/songs/${s.id}`, detail: s.artist, art: s.albumArt, count: s.playCount })),
  };
}

/** Days up to today (a calendar year in progress stops at today); spans over about 13 months go by month. */
function chartData(days: DayCount[], range: { startDate?: string; endDate?: string }, today: string) {
  const start = range.startDate ?? days[0]?.date;
  if (!start) return { kind: 'day' as const, points: [] };
  const tomorrow = addDays(today, 1);
  const end = range.endDate && range.endDate < tomorrow ? range.endDate : tomorrow;
  const filled = fillDays(days, start, end);
  return filled.length > 400 ? { kind: 'month' as const, points: perMonth(filled) } : { kind: 'day' as const, points: filled };
}

export function ProfileStats({ handle, timeZone }: { handle: string; timeZone: string }) {
  const thisYear = currentYear(timeZone);
  const [period, setPeriod] = useState<ProfilePeriod>(DEFAULT_PERIOD);
  const [yearText, setYearText] = useState(String(thisYear));
  const [year, setYear] = useState(thisYear);
  const ids = useId();

  const wrapped = useQuery({ ...wrappedQuery(handle, period === 'all' ? DEFAULT_PERIOD : period, year, timeZone), enabled: period !== 'all' });
  const allTime = useQuery({ queryKey: ['actor-tops', handle], queryFn: () => allTimeTops(handle), enabled: period === 'all' });
  const choice = { period, year };
  const range = chartRange(period, year, timeZone);
  const chart = useQuery(chartQuery(handle, choice, timeZone));

  const tops = period === 'all' ? allTime : wrapped;
  const lists = period === 'all' ? allTime.data : wrapped.data && wrappedTops(wrapped.data);
  const chosenYear = (text: string) => {
    setYearText(text);
    const value = Number(text);
    if (Number.isInteger(value) && value >= 2000 && value <= thisYear) setYear(value);
  };
  const today = localDate(new Date(), timeZone);
  const series = chart.data && chartData(chart.data.chart, range, today);

  return (
    <section className="profile-stats" aria-labelledby={`${ids}-heading`}>
      <div className="stats-head">
        <h2 id={`${ids}-heading`}>Listening</h2>
        <div className="stats-controls">
          <label>
            Period
            <select value={period} onChange={(event) => setPeriod(event.target.value as ProfilePeriod)}>
              {PERIODS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          {period === 'year' && (
            <label>
              Year
              <input type="number" inputMode="numeric" min={2000} max={thisYear} value={yearText} onChange={(event) => chosenYear(event.target.value)} />
            </label>
          )}
        </div>
      </div>
      <p className="muted small">
        Days are counted in {timeZone}.{' '}
        {period !== 'all' && (
          <Link href={wrappedHref(handle, { period, year: period === 'year' ? year : undefined, tz: timeZone })}>See the full Wrapped for this period</Link>
        )}
      </p>

      {period !== 'all' && wrapped.data && <Summary data={wrapped.data} />}
      {tops.isError ? (
        <ErrorNote error={tops.error} />
      ) : !lists ? (
        <Loading label="Loading top lists…" />
      ) : (
        <div className="grid stats-tops" aria-busy={tops.isFetching}>
          <RankedList title="Top artists" items={lists.artists} empty="No plays in this period." />
          <RankedList
            title="Top albums"
            items={lists.albums}
            empty={lists.songs.length === 0 ? 'No plays in this period.' : 'None of these plays names an album.'}
          />
          <RankedList title="Top songs" items={lists.songs} empty="No plays in this period." />
        </div>
      )}

      <h3>{series?.kind === 'month' ? 'Plays per month' : 'Plays per day'}</h3>
      {chart.isError ? (
        <ErrorNote error={chart.error} />
      ) : !series ? (
        <Loading label="Loading the chart…" />
      ) : series.points.every((point) => point.count === 0) ? (
        <p className="muted">No plays to chart in this period. Pick a longer one, or send some plays.</p>
      ) : series.kind === 'month' ? (
        <CountChart
          data={series.points}
          x="month"
          label={chartLabel(
            series.points.map((p) => ({ at: p.month, count: p.count })),
            'month',
          )}
          tick={(m) => formatDay(`${m}-01`, { month: 'short', year: '2-digit' })}
        />
      ) : (
        <CountChart
          data={series.points}
          x="date"
          label={chartLabel(
            series.points.map((p) => ({ at: p.date, count: p.count })),
            'day',
          )}
          tick={(d) => formatDay(d, { month: 'short', day: 'numeric' })}
        />
      )}

      <h3>Listening clock</h3>
      <ListeningClock handle={handle} choice={choice} timeZone={timeZone} />
    </section>
  );
}

/** The chart in words: its span, total and busiest point. */
function chartLabel(points: { at: string; count: number }[], unit: 'day' | 'month'): string {
  const total = points.reduce((sum, p) => sum + p.count, 0);
  const busiest = points.reduce((best, p) => (p.count > best.count ? p : best), points[0]!);
  const when = (at: string) => (unit === 'day' ? formatDay(at) : formatDay(`${at}-01`, { month: 'long', year: 'numeric' }));
  return `Plays per ${unit} from ${when(points[0]!.at)} to ${when(points[points.length - 1]!.at)}: ${total} in all, the most (${busiest.count}) in ${when(busiest.at)}.`;
}

function Summary({ data }: { data: WrappedData }) {
  const days = data.period === 'year' ? null : ROLLING_DAYS[data.period];
  return (
    <dl className="counts">
      <Figure
        label="Plays"
        value={data.totalScrobbles.toLocaleString()}
        note={days && data.totalScrobbles > 0 ? `${(data.totalScrobbles / days).toFixed(1)} a day` : undefined}
      />
      <Figure label="Listening time" value={formatMinutes(data.totalListeningTimeMinutes)} />
      <Figure label="New artists" value={data.newArtistsCount.toLocaleString()} />
      <Figure label="Longest streak" value={`${data.longestStreak} ${data.longestStreak === 1 ? 'day' : 'days'}`} />
      {data.totalScrobbles > 0 && <Figure label="Most active hour" value={formatHour(data.mostActiveHour)} />}
    </dl>
  );
}
