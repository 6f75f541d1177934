/**
 * An artist's, album's or song's listening over time (app.svc.stats.getEntityStats), loaded lazily
 * below the page's own figures: plays per month (everyone's, and the viewer's when signed in),
 * rank among its kind, first and last plays, and top listeners. The charts are plain SVG lines
 * stretched to the width they get; a visually hidden table says the same month by month.
 */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { type Output, query } from '../../api/xrpc.ts';
import { useSession } from '../../api/session.ts';
import { Artwork } from '../../components/Artwork.tsx';
import { ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { Link } from '../../router.tsx';
import { BOX, monthName, playsPaths, playsSummary, rankPath, type MonthRow } from './trend.ts';

type Kind = 'artist' | 'album' | 'song';
type Stats = Output<'app.svc.stats.getEntityStats'>;
type Play = NonNullable<Stats['viewerFirstPlay']>;
type Listener = NonNullable<Stats['firstPlay']>['listener'];

const KINDS: Record<Kind, string> = { artist: 'artists', album: 'albums', song: 'songs' };

export default function EntityStats({ kind, id }: { kind: Kind; id: string }) {
  const session = useSession();
  const stats = useQuery({ queryKey: ['entity-stats', kind, id, session?.did], queryFn: () => query('app.svc.stats.getEntityStats', { kind, id }) });
  const heading = useId();
  return (
    <section className="entity-stats" aria-labelledby={heading}>
      <h2 id={heading}>Listening over time</h2>
      {stats.isError ? (
        <ErrorNote error={stats.error} />
      ) : !stats.data ? (
        <Loading label="Loading the listening history…" />
      ) : (
        <Figures kind={kind} stats={stats.data} />
      )}
    </section>
  );
}

function Figures({ kind, stats }: { kind: Kind; stats: Stats }) {
  const { months } = stats;
  const signedIn = months.some((m) => m.viewerPlays !== undefined);
  return (
    <>
      <PlaysChart months={months} />
      <RankChart months={months} kind={kind} />
      <MonthTable months={months} signedIn={signedIn} kind={kind} />
      <h3>First and last plays</h3>
      {stats.firstPlay ? (
        <dl className="details entity-plays">
          <PlayRow label="First play" play={stats.firstPlay} listener={stats.firstPlay.listener} kind={kind} />
          {stats.lastPlay && <PlayRow label="Last play" play={stats.lastPlay} listener={stats.lastPlay.listener} kind={kind} />}
          {stats.viewerFirstPlay && <PlayRow label="Your first play" play={stats.viewerFirstPlay} kind={kind} />}
          {stats.viewerLastPlay && <PlayRow label="Your last play" play={stats.viewerLastPlay} kind={kind} />}
        </dl>
      ) : (
        <p className="muted">Nobody has played this yet.</p>
      )}
      <h3>Top listeners</h3>
      {stats.topListeners.length > 0 ? (
        <ol className="entity-listeners">
          {stats.topListeners.map((listener) => (
            <li key={listener.did}>
              <Artwork src={listener.avatar} name={listener.displayName ?? listener.handle} size={32} />
              <Link href={`/u/${encodeURIComponent(listener.handle)}`}>{listener.displayName ?? listener.handle}</Link>
              <span className="muted small">@{listener.handle}</span>
              <span className="stats-count">{listener.plays.toLocaleString()}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No listeners yet.</p>
      )}
    </>
  );
}

function PlaysChart({ months }: { months: MonthRow[] }) {
  const paths = playsPaths(months);
  return (
    <figure className="card trend">
      <figcaption>
        <strong>Plays per month</strong>
        <span className="trend-legend" aria-hidden="true">
          <span className="trend-key trend-everyone">Everyone</span>
          {paths.viewer !== undefined && <span className="trend-key trend-viewer">You</span>}
        </span>
      </figcaption>
      <Plot top={paths.max.toLocaleString()} bottom="0" label={playsSummary(months)}>
        <path className="trend-everyone" d={paths.everyone} />
        {paths.viewer !== undefined && <path className="trend-viewer" d={paths.viewer} />}
      </Plot>
      <MonthAxis months={months} />
    </figure>
  );
}

function RankChart({ months, kind }: { months: MonthRow[]; kind: Kind }) {
  const rank = rankPath(months);
  if (!rank) return null;
  const ranked = months.filter((m) => m.rank !== undefined);
  const best = ranked.reduce((top, m) => (m.rank! < top.rank! ? m : top));
  const label = `Rank among ${KINDS[kind]} by plays, month by month: ranked in ${ranked.length} of ${months.length} months, at best #${best.rank} in ${monthName(best.month, 'long')}.`;
  return (
    <figure className="card trend">
      <figcaption>
        <strong>Rank among {KINDS[kind]}</strong>
      </figcaption>
      <Plot top="#1" bottom={`#${Math.max(rank.worst, 2)}`} label={label}>
        <path className="trend-everyone trend-rank" d={rank.path} />
      </Plot>
      <MonthAxis months={months} />
    </figure>
  );
}

/** The drawing with its scale's two ends beside it; `label` is what a screen reader hears instead. */
function Plot({ top, bottom, label, children }: { top: string; bottom: string; label: string; children: React.ReactNode }) {
  return (
    <div className="trend-plot" role="img" aria-label={label}>
      <div className="trend-scale muted small" aria-hidden="true">
        <span>{top}</span>
        <span>{bottom}</span>
      </div>
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <line className="trend-grid" x1="0" x2={BOX.width} y1={BOX.height - BOX.pad} y2={BOX.height - BOX.pad} />
        {children}
      </svg>
    </div>
  );
}

function MonthAxis({ months }: { months: MonthRow[] }) {
  return (
    <div className="trend-axis muted small" aria-hidden="true">
      <span>{monthName(months[0]!.month)}</span>
      <span>{monthName(months.at(-1)!.month)}</span>
    </div>
  );
}

/** Every month's figures for screen readers: the charts' text alternative. */
function MonthTable({ months, signedIn, kind }: { months: MonthRow[]; signedIn: boolean; kind: Kind }) {
  return (
    // Hidden by a wrapper: a table takes its content's width whatever width it is given.
    <div className="visually-hidden">
      <table>
        <caption>Plays and rank among {KINDS[kind]} per month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Plays</th>
            {signedIn && <th scope="col">Your plays</th>}
            <th scope="col">Rank</th>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{monthName(m.month, 'long')}</th>
              <td>{m.plays}</td>
              {signedIn && <td>{m.viewerPlays}</td>}
              <td>{m.rank === undefined ? '–' : `#${m.rank}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** When, by whom (everyone's plays), and which song (on an artist's or album's page). */
function PlayRow({ label, play, listener, kind }: { label: string; play: Play; listener?: Listener; kind: Kind }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <time dateTime={play.playedAt}>{formatDate(play.playedAt)}</time>
        {listener && (
          <>
            {' by '}
            <Link href={`/u/${encodeURIComponent(listener.handle)}`}>{listener.displayName ?? listener.handle}</Link>
          </>
        )}
        {kind !== 'song' && (
          <>
            {' · '}
            <Link href={`/songs/${play.songId}`}>{play.songTitle}</Link>
          </>
        )}
      </dd>
    </div>
  );
}
