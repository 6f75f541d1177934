/**
 * Pieces the profile's statistics and the Wrapped page share: ranked lists with bars, and the
 * Recharts bar chart (only these lazily loaded pages import Recharts, so it stays out of the first load).
 */
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Artwork } from '../components/Artwork.tsx';
import { Link } from '../router.tsx';

export interface Ranked {
  key: string;
  name: string;
  /** Where the name leads (a catalog page). */
  href?: string | undefined;
  /** A second line: the artist of a song or album. */
  detail?: string | undefined;
  art?: string | undefined;
  count: number;
}

/** A top list: position, cover, name, plays, and a bar relative to the first. */
export function RankedList({ title, items, empty }: { title: string; items: Ranked[]; empty: string }) {
  const most = Math.max(1, ...items.map((item) => item.count));
  return (
    <section className="card stats-top" aria-label={title}>
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted small">{empty}</p>
      ) : (
        <ol>
          {items.map((item) => (
            <li key={item.key}>
              <Artwork src={item.art} name={item.name} size={36} />
              <div className="stats-top-text">
                {item.href ? <Link href={item.href}>{item.name}</Link> : <span>{item.name}</span>}
                {item.detail && <span className="muted small"> · {item.detail}</span>}
                <div className="stats-bar" aria-hidden="true">
                  <span style={{ width: `${(100 * item.count) / most}%` }} />
                </div>
              </div>
              <span className="stats-count">{item.count.toLocaleString()}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * A bar chart of counts. `label` says in words what it shows (screen readers get it instead of
 * the drawing); `tick` formats the x-axis labels.
 */
export function CountChart({
  data,
  x,
  label,
  tick,
  height = 220,
  layout = 'horizontal',
}: {
  data: readonly ({ count: number } & Record<string, string | number>)[];
  /** The field each bar is labelled by. */
  x: string;
  label: string;
  tick?: (value: string) => string;
  height?: number;
  /** 'vertical' puts the categories down the side (long names, such as genres). */
  layout?: 'horizontal' | 'vertical';
}) {
  const axisStyle = { fill: 'var(--muted)', fontSize: 12 };
  const tooltip = (
    <Tooltip
      cursor={{ fill: 'var(--line)', opacity: 0.5 }}
      contentStyle={{ background: 'var(--card)', border: '1px solid var(--line)', borderRadius: 8, color: 'var(--fg)' }}
      labelFormatter={(value) => (tick ? tick(String(value)) : String(value))}
      formatter={(value) => [Number(value).toLocaleString(), 'plays']}
    />
  );
  return (
    <div className="stats-chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height={height}>
        {layout === 'vertical' ? (
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
            <CartesianGrid horizontal={false} stroke="var(--line)" />
            <XAxis type="number" allowDecimals={false} tick={axisStyle} stroke="var(--line)" />
            <YAxis type="category" dataKey={x} width={110} tick={axisStyle} tickFormatter={shorten} stroke="var(--line)" />
            {tooltip}
            <Bar dataKey="count" fill="var(--accent)" radius={[0, 4, 4, 0]} isAnimationActive={false} />
          </BarChart>
        ) : (
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid vertical={false} stroke="var(--line)" />
            <XAxis dataKey={x} tick={axisStyle} tickFormatter={tick} stroke="var(--line)" minTickGap={16} />
            <YAxis allowDecimals={false} tick={axisStyle} stroke="var(--line)" />
            {tooltip}
            <Bar dataKey="count" fill="var(--accent)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          </BarChart>
        )}
      </ResponsiveContainer>
    </div>
  );
}

/** Long category names (genres) cut to one line beside the bars; the tooltip shows them whole. */
const shorten = (value: string) => (value.length > 16 ? `${value.slice(0, 15).trimEnd()}…` : value);

/** A labelled figure among the summary tiles. */
export function Figure({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
      {note && <dd className="muted small stats-note">{note}</dd>}
    </div>
  );
}
