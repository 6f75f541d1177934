import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from './testing.ts';
import type { Database } from './database.ts';
import { compiledOnce } from './compiled-once.ts';

for (const backend of testBackends()) {
  describe(`a query compiled once [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => {
      ({ db, close } = await backend.open());
      await db
        .insertInto('users')
        .values([
          { did: 'did:plc:one', handle: 'one.test' },
          { did: 'did:plc:two', handle: 'two.test' },
        ])
        .execute();
    });
    after(() => close());

    it('runs with each call’s arguments in their places, constants kept', async () => {
      const byHandle = compiledOnce((db: Database, handle: string, did: string) =>
        db.selectFrom('users').select('did').where('handle', '=', handle).where('did', '<>', 'did:plc:none').where('did', '=', did),
      );
      assert.deepEqual(await byHandle(db, 'one.test', 'did:plc:one'), [{ did: 'did:plc:one' }]);
      assert.deepEqual(await byHandle(db, 'two.test', 'did:plc:two'), [{ did: 'did:plc:two' }]);
      assert.deepEqual(await byHandle(db, 'two.test', 'did:plc:one'), []);
    });
  });
}
