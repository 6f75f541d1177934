/**
 * The profile's listening clock: plays by weekday and hour of day in the viewer's chosen zone, as a
 * 7 × 24 table whose cells are shaded by count. A table, so screen readers announce each cell with
 * its day and hour; each cell also names itself ("Mon 21:00 – 3 plays") for pointer users.
 */
import { useQuery } from '@tanstack/react-query';
import type { CSSProperties } from 'react';
import { ErrorNote, Loading } from '../components/ui.tsx';
import { clockQuery, type PeriodChoice } from './profile-queries.ts';
import { WEEKDAYS, busiest, cellLabel, clockGrid, clockHour } from './listening-clock.ts';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export function ListeningClock({ handle, choice, timeZone }: { handle: string; choice: PeriodChoice; timeZone: string }) {
  const clock = useQuery(clockQuery(handle, choice, timeZone));

  if (clock.isError) return <ErrorNote error={clock.error} />;
  if (!clock.data) return <Loading label="Loading the listening clock…" />;
  const cells = clock.data.clock;
  if (cells.length === 0) return <p className="muted">No plays in this period to place on the clock. Pick a longer one, or send some plays.</p>;
  const grid = clockGrid(cells);

  return (
    <div className="clock-box" aria-busy={clock.isFetching}>
      <table className="clock">
        <caption className="muted small">
          {grid.total.toLocaleString()} plays by weekday and hour in {clock.data.timeZone}; the busiest: {busiest(cells)}.
        </caption>
        <thead>
          <tr>
            <td />
            {HOURS.map((hour) => (
              <th key={hour} scope="col" abbr={clockHour(hour)}>
                {/* Every sixth hour is printed; the rest are named for screen readers only, to fit 360 px. */}
                {hour % 6 === 0 ? hour : <span className="clock-hidden">{clockHour(hour)}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.counts.map((hours, weekday) => (
            <tr key={weekday}>
              <th scope="row">{WEEKDAYS[weekday]}</th>
              {hours.map((count, hour) => (
                <td
                  key={hour}
                  title={cellLabel(weekday, hour, count)}
                  aria-label={cellLabel(weekday, hour, count)}
                  style={{ '--clock-level': `${count === 0 ? 0 : Math.round(15 + (85 * count) / grid.max)}%` } as CSSProperties}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
