import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentPictures } from './recent-pictures.ts';

const picture = (bytes: number) => ({ data: Buffer.alloc(bytes), contentType: 'image/png' as const });

describe('pictures kept between requests', () => {
  it('keeps within its budget, dropping the least recently used first, and never one above the largest size', () => {
    const kept = new RecentPictures(100, 60);
    kept.set('a', picture(40));
    kept.set('b', picture(40));
    assert.ok(kept.get('a'), 'a is now the most recently used');
    kept.set('c', picture(40));
    assert.equal(kept.get('b'), undefined, 'b, the least recently used, made room');
    assert.ok(kept.get('a'));
    assert.ok(kept.get('c'));
    kept.set('d', picture(61));
    assert.equal(kept.get('d'), undefined);
    assert.ok(kept.get('a') && kept.get('c'), 'a picture too large to keep drops nothing');
  });
});
