/**
 * A user's Wrapped (spec 2.5) for any period and time zone, every statistic getWrapped answers as
 * cards and charts, and "Save as image" (a PNG drawn in the browser). Period, year and tz live in
 * the URL's query, so a Wrapped can be linked; the zone defaults to the user's own setting when it
 * is theirs to see (their own profile), else to the browser's.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { query } from '../api/xrpc.ts';
import { useSession } from '../api/session.ts';
import { Empty, ErrorNote, Loading, PageError } from '../components/ui.tsx';
import { Link, navigate, useLocation } from '../router.tsx';
import { CountChart, Figure, RankedList } from './stats-parts.tsx';
import {
  WRAPPED_PERIODS,
  browserTimeZone,
  fillDays,
  formatDay,
  formatHour,
  formatInstant,
  formatMinutes,
  dayChartLabel,
  isWrappedPeriod,
  localDayRange,
  monthSeries,
  periodLabel,
  readWrappedView,
  wrappedHref,
  type WrappedData,
  type WrappedView,
} from './stats.ts';
import { chartQuery } from './profile-queries.ts';
import { saveWrappedImage } from './wrapped-image.ts';
import { wrappedImageTitle } from './wrapped-image-text.ts';

/** Where the listening time comes from: played time the players reported, song lengths for the rest. */
function listeningNote({ measuredScrobbles = 0, measuredListeningTimeMinutes = 0, totalScrobbles }: WrappedData): string {
  if (measuredScrobbles === 0) return 'from song lengths, where known';
  if (measuredScrobbles === totalScrobbles) return 'as played';
  return `${formatMinutes(measuredListeningTimeMinutes)} as played (${measuredScrobbles.toLocaleString()} plays), the rest from song lengths`;
}

export function Wrapped({ handle }: { handle: string }) {
  const session = useSession();
  const { search } = useLocation();
  const view = readWrappedView(search);
  const own = session !== null && (session.handle === handle || session.did === handle);
  const profile = useQuery({ queryKey: ['profile', handle, session?.did], queryFn: () => query('app.svc.actor.getProfile', { did: handle }) });
  // Only the user themself sees their zone; until their profile arrives, the default is unknown.
  const timeZone = view.tz ?? (own ? profile.data?.timeZone : undefined) ?? (own && profile.isPending ? undefined : browserTimeZone());
  const wrapped = useQuery({
    queryKey: ['wrapped', handle, view.period, view.period === 'year' ? (view.year ?? null) : null, timeZone],
    queryFn: () => query('app.svc.stats.getWrapped', { did: handle, period: view.period, year: view.year, tz: timeZone }),
    enabled: timeZone !== undefined,
    retry: false,
  });
  const name = profile.data ? (profile.data.displayName ?? profile.data.handle) : handle;

  if (profile.isError) return <PageError error={profile.error} what="profile" />;
  return (
    <section className="wrapped">
      <p className="muted small">
        <Link href={`/u/${encodeURIComponent(handle)}`}>← {own ? 'Your profile' : `${name}'s profile`}</Link>
      </p>
      <h1>{own ? 'Your Wrapped' : `${name}'s Wrapped`}</h1>
      {timeZone === undefined ? (
        <Loading />
      ) : (
        <>
          <Controls key={`${view.period}|${view.year}|${timeZone}`} handle={handle} view={{ ...view, tz: timeZone }} year={wrapped.data?.year} />
          {wrapped.isPending ? (
            <Loading label="Counting plays…" />
          ) : wrapped.isError ? (
            <ErrorNote error={wrapped.error} />
          ) : (
            <WrappedBody data={wrapped.data} handle={handle} shownHandle={profile.data?.handle ?? handle} timeZone={timeZone} own={own} />
          )}
        </>
      )}
    </section>
  );
}

/** Period, year and zone; choosing a period applies at once, a typed year or zone on "Show". */
function Controls({ handle, view, year }: { handle: string; view: WrappedView & { tz: string }; year: number | undefined }) {
  const ids = useId();
  const [period, setPeriod] = useState(view.period);
  const [yearText, setYearText] = useState(String(view.year ?? year ?? new Date().getFullYear()));
  const [tz, setTz] = useState(view.tz);
  const go = (next: Partial<WrappedView>) => {
    const chosen = { period, year: Number(yearText) || undefined, tz: tz.trim() || undefined, ...next };
    navigate(wrappedHref(handle, chosen));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({});
  };
  return (
    <form className="stats-controls wrapped-controls" onSubmit={submit}>
      <label>
        Period
        <select
          value={period}
          onChange={(event) => {
            if (!isWrappedPeriod(event.target.value)) return;
            setPeriod(event.target.value);
            go({ period: event.target.value });
          }}
        >
          {WRAPPED_PERIODS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {period === 'year' && (
        <label>
          Year
          <input type="number" inputMode="numeric" min={2000} max={9999} required value={yearText} onChange={(event) => setYearText(event.target.value)} />
        </label>
      )}
      <label>
        Time zone
        <input list={`${ids}-zones`} value={tz} onChange={(event) => setTz(event.target.value)} autoComplete="off" spellCheck={false} />
      </label>
      <datalist id={`${ids}-zones`}>
        {Intl.supportedValuesOf('timeZone').map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <button type="submit">Show</button>
    </form>
  );
}

interface BodyProps {
  data: WrappedData;
  /** As the URL names the user: a handle or a DID. */
  handle: string;
  /** The user's handle once their profile has come, for the saved image's title. */
  shownHandle: string;
  timeZone: string;
  own: boolean;
}

function WrappedBody({ data, handle, shownHandle, timeZone, own }: BodyProps) {
  const [saving, setSaving] = useState<'idle' | 'saving' | Error>('idle');
  // Plays per local day in the chosen zone, over the very window of this Wrapped (its scrobblesPerDay counts UTC days).
  const chart = useQuery({ ...chartQuery(handle, { period: data.period, year: data.year }, timeZone), enabled: data.totalScrobbles > 0 });
  const dayRange = localDayRange(data.startDate, data.endDate, timeZone);
  const days = chart.data && fillDays(chart.data.chart, dayRange.start, dayRange.end);
  const label = periodLabel(data.period, data.year);
  const span = `${formatInstant(data.startDate, timeZone)} – ${formatInstant(data.endDate, timeZone)}`;
  const save = async () => {
    setSaving('saving');
    try {
      await saveWrappedImage(
        data,
        {
          title: wrappedImageTitle(shownHandle, data.period, data.year),
          subtitle: `${label} · ${timeZone}`,
          days,
          fileName: `wrapped-${handle}-${data.period === 'year' ? data.year : data.period}.png`,
        },
        timeZone,
      );
      setSaving('idle');
    } catch (error) {
      setSaving(error instanceof Error ? error : new Error(String(error)));
    }
  };

  if (data.totalScrobbles === 0) {
    return (
      <Empty>
        <p>
          <strong>No plays {data.period === 'year' ? `in ${data.year}` : `in the ${label.toLowerCase()}`}</strong> ({span}, {timeZone}).
        </p>
        <p>
          {own
            ? 'Choose a longer period or another year, or send some plays first: Settings shows how to connect a scrobbler.'
            : 'Choose a longer period or another year.'}
        </p>
      </Empty>
    );
  }
  const months = monthSeries(data.scrobblesPerMonth, data.startDate, timeZone);
  return (
    <>
      <div className="wrapped-bar">
        {/* The period heads the sections below (h3), one level under the page's h1. */}
        <h2 className="wrapped-period">
          {label}: {span} ({timeZone})
        </h2>
        <button type="button" onClick={() => void save()} disabled={saving === 'saving'}>
          {saving === 'saving' ? 'Drawing…' : 'Save as image'}
        </button>
      </div>
      {saving instanceof Error && <ErrorNote error={saving} />}

      <dl className="counts wrapped-figures">
        <Figure label="Plays" value={data.totalScrobbles.toLocaleString()} />
        <Figure label="Listening time" value={formatMinutes(data.totalListeningTimeMinutes)} note={listeningNote(data)} />
        <Figure label="New artists" value={data.newArtistsCount.toLocaleString()} note="first heard in this period" />
        <Figure label="Longest streak" value={`${data.longestStreak} ${data.longestStreak === 1 ? 'day' : 'days'}`} note="in a row with plays" />
        {data.mostActiveDay && (
          <Figure label="Most active day" value={formatDay(data.mostActiveDay.date)} note={`${data.mostActiveDay.count.toLocaleString()} plays`} />
        )}
        <Figure label="Most active hour" value={formatHour(data.mostActiveHour)} />
      </dl>

      <div className="grid stats-tops">
        <RankedList
          title="Top artists"
          items={data.topArtists.map((a) => ({ key: a.id, name: a.name, href: `/artists/${a.id}`, art: a.picture, count: a.playCount }))}
          empty="No artists."
        />
        <RankedList
          title="Top songs"
          items={data.topTracks.map((t) => ({ key: t.id, name: t.title, href: `/songs/${t.id}`, detail: t.artist, art: t.albumArt, count: t.playCount }))}
          empty="No songs."
        />
        <RankedList
          title="Top albums"
          items={data.topAlbums.map((a) => ({ key: a.id, name: a.title, href: `/albums/${a.id}`, detail: a.artist, art: a.albumArt, count: a.playCount }))}
          empty="None of these plays names an album."
        />
      </div>

      <div className="grid wrapped-charts">
        <section className="card" aria-label="Top genres">
          <h3>Top genres</h3>
          {data.topGenres.length === 0 ? (
            <p className="muted small">No genres known for these plays: they come from the songs' and albums' genre tags.</p>
          ) : (
            <CountChart
              data={data.topGenres}
              x="genre"
              layout="vertical"
              height={Math.max(120, 34 * data.topGenres.length)}
              label={`Top genres: ${data.topGenres.map((g) => `${g.genre} (${g.count})`).join(', ')}.`}
            />
          )}
        </section>
        <section className="card" aria-label="Plays per month">
          <h3>Plays per month</h3>
          <CountChart
            data={months}
            x="month"
            tick={(m) => formatDay(`${m}-01`, { month: 'short', ...(months.length > 12 ? { year: '2-digit' } : {}) })}
            label={`Plays per month: ${months.map((m) => `${formatDay(`${m.month}-01`, { month: 'long', year: 'numeric' })} ${m.count}`).join(', ')}.`}
          />
        </section>
      </div>

      <section className="card wrapped-days" aria-label="Plays per day">
        <h3>Plays per day</h3>
        <p className="muted small">Days in {timeZone}.</p>
        {chart.isError ? (
          <ErrorNote error={chart.error} />
        ) : !days ? (
          <Loading label="Loading the chart…" />
        ) : (
          <CountChart data={days} x="date" tick={(d) => formatDay(d, { month: 'short', day: 'numeric' })} label={dayChartLabel(days, timeZone)} />
        )}
      </section>

      <div className="grid">
        {data.firstScrobble && <Moment title="First play" moment={data.firstScrobble} timeZone={timeZone} />}
        {data.lastScrobble && <Moment title="Last play" moment={data.lastScrobble} timeZone={timeZone} />}
      </div>
    </>
  );
}

function Moment({ title, moment, timeZone }: { title: string; moment: NonNullable<WrappedData['firstScrobble']>; timeZone: string }) {
  return (
    <section className="card" aria-label={title}>
      <h3>{title}</h3>
      <p>
        <strong>{moment.trackTitle}</strong> · {moment.artistName}
      </p>
      <p className="muted small">{formatInstant(moment.timestamp, timeZone, { dateStyle: 'full', timeStyle: 'short' })}</p>
    </section>
  );
}
