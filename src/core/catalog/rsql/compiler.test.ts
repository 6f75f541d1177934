import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { SONG_FILTER_FIELDS } from '../song-filter.ts';
import { compileRsql } from './compiler.ts';
import { RsqlError } from './parser.ts';

/** Compiles SQL text without a database. */
const offline = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function compiled(filter: string): { sql: string; parameters: readonly unknown[] } {
  const { sql, parameters } = compileRsql(filter, SONG_FILTER_FIELDS).compile(offline);
  return { sql, parameters };
}

function rejects(filter: string, message: RegExp) {
  assert.throws(
    () => compileRsql(filter, SONG_FILTER_FIELDS),
    (error: unknown) => {
      assert.ok(error instanceof RsqlError, String(error));
      assert.match(error.message, message);
      return true;
    },
    filter,
  );
}

const TITLE = '"t"."title"';
const DURATION = '"t"."duration"';
const CREATED = '"t"."created_at"';

describe('compileRsql over the song fields', () => {
  it('compares text case-insensitively and wildcards with an escaped ilike pattern', () => {
    assert.deepEqual(compiled('title==Love'), { sql: `lower(${TITLE}) = lower(cast($1 as text))`, parameters: ['Love'] });
    assert.deepEqual(compiled('title==*love*'), { sql: `${TITLE} ilike $1`, parameters: ['%love%'] });
    assert.deepEqual(compiled('title==lo*ve'), { sql: `${TITLE} ilike $1`, parameters: ['lo%ve'] });
    // % and _ (and the escape character itself) match only themselves.
    assert.deepEqual(compiled('title==*100%_off\\\\*').parameters, ['%100\\%\\_off\\\\%']);
    assert.deepEqual(compiled('title==\\*').sql, `lower(${TITLE}) = lower(cast($1 as text))`, 'an escaped * is no wildcard');
  });

  it('compiles every operator', () => {
    assert.deepEqual(compiled('duration==5'), { sql: `${DURATION} = $1`, parameters: [5] });
    assert.equal(compiled('duration!=5').sql, `not coalesce(${DURATION} = $1, false)`);
    for (const [written, op] of [
      ['<', '<'],
      ['<=', '<='],
      ['>', '>'],
      ['>=', '>='],
      ['=lt=', '<'],
      ['=le=', '<='],
      ['=gt=', '>'],
      ['=ge=', '>='],
    ]) {
      assert.deepEqual(compiled(`duration${written}5`), { sql: `${DURATION} ${op} $1`, parameters: [5] }, written);
    }
    assert.deepEqual(compiled('trackNumber=in=(1,+2,-3)'), { sql: '"t"."track_number" in ($1, $2, $3)', parameters: [1, 2, -3] });
    assert.deepEqual(compiled('album=out=(A,b)'), {
      sql: 'not coalesce(lower("t"."album") in (lower(cast($1 as text)), lower(cast($2 as text))), false)',
      parameters: ['A', 'b'],
    });
    assert.equal(compiled('title!=*x*').sql, `not coalesce(${TITLE} ilike $1, false)`, 'negations keep rows without a value');
  });

  it('keeps precedence with parentheses in the SQL', () => {
    assert.equal(compiled('duration==1;duration==2,duration==3').sql, `((${DURATION} = $1 and ${DURATION} = $2) or ${DURATION} = $3)`);
    assert.equal(compiled('duration==1;(duration==2 or duration==3)').sql, `(${DURATION} = $1 and (${DURATION} = $2 or ${DURATION} = $3))`);
  });

  it('reads createdAt dates as whole UTC days and date-times as instants', () => {
    const day = `cast($1 as timestamp)`;
    assert.deepEqual(compiled('createdAt==2024-01-31'), {
      sql: `(${CREATED} >= (${day} at time zone 'UTC') and ${CREATED} < ((cast($2 as timestamp) + interval '1 day') at time zone 'UTC'))`,
      parameters: ['2024-01-31', '2024-01-31'],
    });
    assert.equal(compiled('createdAt<=2024-01-31').sql, `${CREATED} < ((${day} + interval '1 day') at time zone 'UTC')`);
    assert.equal(compiled('createdAt>2024-01-31').sql, `${CREATED} >= ((${day} + interval '1 day') at time zone 'UTC')`);
    assert.deepEqual(compiled('createdAt>=2024-01-31t18:30:00.5+02:00'), {
      sql: `${CREATED} >= cast($1 as timestamptz)`,
      parameters: ['2024-01-31T18:30:00.5+02:00'],
    });
    assert.equal(compiled('createdAt<2024-01-31T18:30Z').sql, `${CREATED} < cast($1 as timestamptz)`);
    assert.match(compiled('createdAt=in=(2024-01-01,2024-01-02)').sql, / or /);
  });

  it('accepts mbid as an alias of mbId, on the same column', () => {
    assert.deepEqual(compiled('mbid==X'), compiled('mbId==X'));
  });

  it('rejects ill-typed values, naming the field and the position', () => {
    rejects('duration==long', /duration takes a whole number, found "long" at position 11/);
    rejects('duration==1.5', /whole number/);
    rejects('duration==2147483648', /duration value 2147483648 is out of range at position 11/);
    rejects('duration==*5*', /wildcard "\*" is only allowed with == and != on text fields at position 11/);
    rejects('title=in=(a*,b)', /wildcard "\*" is only allowed with == and != on text fields at position 11/);
    rejects(
      'title>a',
      /operator > orders numbers and dates, but title is text at position 6; ordering applies to duration, trackNumber, discNumber, createdAt/,
    );
    rejects('createdAt==yesterday', /createdAt takes an ISO 8601 date or date-time, found "yesterday" at position 12/);
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-01-01T24:00:00Z', '2024-01-01T10:00:00', '2024-01-01T10:61Z', '0000-01-01']) {
      rejects(`createdAt==${bad}`, /ISO 8601/);
    }
    assert.equal(compiled('createdAt==2024-02-29').parameters[0], '2024-02-29');
  });

  it('rejects unknown fields, including Object.prototype names', () => {
    for (const field of ['plays', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'id', 'lyrics']) {
      rejects(`${field}==1`, new RegExp(`unknown field "${field}" at position 1; filterable fields: title, artist, album`));
    }
    rejects('title==a;Title==b', /unknown field "Title" at position 10/);
  });

  it('passes injection attempts only as bound parameters', () => {
    const attempt = compiled(`title=="x' or 1=1 --"`);
    assert.deepEqual(attempt, { sql: `lower(${TITLE}) = lower(cast($1 as text))`, parameters: ["x' or 1=1 --"] });
    const wildcard = compiled(`title=="*'; drop table tracks; --*"`);
    assert.deepEqual(wildcard.parameters, ["%'; drop table tracks; --%"]);
    assert.doesNotMatch(wildcard.sql, /drop/);
    rejects('title==x);drop table tracks', /unexpected "\)" at position 9/);
  });
});
