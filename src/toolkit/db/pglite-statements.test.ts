import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { PGliteStatements } from './pglite-statements.ts';

describe('prepared statements on the embedded database', () => {
  let pglite: PGlite;
  before(async () => {
    pglite = new PGlite({ parsers: { 20: Number } });
    await pglite.exec(`create table t (id int8 primary key, body jsonb, at timestamptz, data bytea, tags text[], ok bool, note text)`);
  });
  after(() => pglite.close());

  it('gives the rows, fields and counts that PGlite query gives, whatever the types', async () => {
    const statements = new PGliteStatements(pglite);
    const insert = 'insert into t values ($1, $2, $3, $4, $5, $6, $7) returning *';
    const values = [1, { a: [1, 'x'] }, new Date('2026-01-02T03:04:05Z'), new Uint8Array([0, 255, 7]), ['a', 'b c'], true, null];
    const prepared = await statements.query(insert, values);
    await pglite.exec('delete from t');
    assert.deepEqual(prepared, await pglite.query(insert, values));
    for (const id of [1, 2, 3]) {
      const select = 'select *, $2::text as extra from t where id <= $1 order by id';
      assert.deepEqual(await statements.query(select, [id, `x${id}`]), await pglite.query(select, [id, `x${id}`]));
    }
    const update = 'update t set note = $1 where id > $2';
    assert.deepEqual((await statements.query(update, ['n', 0])).affectedRows, 1);
  });

  it('reports a failure as PGlite does and runs the statement again after it', async () => {
    const statements = new PGliteStatements(pglite);
    const insert = 'insert into t (id) values ($1)';
    await statements.query(insert, [10]);
    const failure = await statements.query(insert, [10]).catch((error: unknown) => error);
    assert.equal((failure as { code?: string }).code, '23505');
    assert.equal((failure as { query?: string }).query, insert);
    assert.equal((await statements.query(insert, [11])).affectedRows, 1);
  });

  it('answers with the new columns after a table read with * changes', async () => {
    const statements = new PGliteStatements(pglite);
    await pglite.exec('create table changing (id int)');
    await pglite.exec('insert into changing values (1)');
    const select = 'select * from changing where id = $1';
    assert.deepEqual((await statements.query(select, [1])).rows, [{ id: 1 }]);
    await pglite.exec('alter table changing add column name text');
    assert.deepEqual((await statements.query(select, [1])).rows, [{ id: 1, name: null }]);
  });

  it('runs a statement of many parameters unprepared', async () => {
    await pglite.exec('deallocate all');
    const ids = Array.from({ length: 100 }, (_, i) => i + 1000);
    const insert = `insert into t (id) values ${ids.map((_, i) => `($${i + 1})`).join(', ')}`;
    assert.equal((await new PGliteStatements(pglite).query(insert, ids)).affectedRows, 100);
    assert.deepEqual((await pglite.query('select count(*)::int as count from pg_prepared_statements')).rows, [{ count: 0 }]);
  });

  it('keeps no more statements prepared than its bound', async () => {
    await pglite.exec('deallocate all'); // those of the tests before
    const statements = new PGliteStatements(pglite, 3);
    for (let round = 0; round < 2; round++) {
      for (let n = 1; n <= 8; n++) assert.deepEqual((await statements.query(`select $1::int + ${n} as sum`, [round])).rows, [{ sum: round + n }]);
    }
    const { rows } = await pglite.query<{ count: number }>(`select count(*) as count from pg_prepared_statements`);
    assert.ok(rows[0]!.count <= 3, `${rows[0]!.count} statements prepared`);
  });
});
