import assert from 'node:assert/strict';
import { test } from 'node:test';
import { element, jsonDocument, list, xmlDocument } from './response.ts';

const scrobbles = (count: number) =>
  element(
    'scrobbles',
    Array.from({ length: count }, (_, i) =>
      element('scrobble', [element('track', `T${i}`, { corrected: '0' }), element('timestamp', '1700000000'), element('ignoredMessage', '', { code: '0' })]),
    ),
    { accepted: count, ignored: 0 },
  );

test('XML nests elements with attributes, escaped', () => {
  const body = element('nowplaying', [element('artist', 'Tom & "Jerry" <3', { corrected: '0' })]);
  assert.equal(
    xmlDocument('ok', body),
    '<?xml version="1.0" encoding="UTF-8"?>\n<lfm status="ok"><nowplaying><artist corrected="0">Tom &amp; &quot;Jerry&quot; &lt;3</artist></nowplaying></lfm>\n',
  );
  assert.equal(xmlDocument('ok', null), '<?xml version="1.0" encoding="UTF-8"?>\n<lfm status="ok"></lfm>\n');
});

test('XML drops characters XML 1.0 cannot carry', () => {
  assert.match(xmlDocument('ok', element('track', 'a\u0000b\u001Fc\td')), /<track>abc\td<\/track>/);
});

test("JSON follows Last.fm's mapping: #text beside leaf attributes, @attr on parents, repeats as arrays", () => {
  assert.deepEqual(jsonDocument(scrobbles(1)), {
    scrobbles: {
      scrobble: { track: { corrected: '0', '#text': 'T0' }, timestamp: '1700000000', ignoredMessage: { code: '0', '#text': '' } },
      '@attr': { accepted: 1, ignored: 0 },
    },
  });
  const two = jsonDocument(scrobbles(2)) as { scrobbles: { scrobble: unknown[] } };
  assert.equal(two.scrobbles.scrobble.length, 2);
  assert.deepEqual(jsonDocument(element('session', [element('name', 'alice'), element('subscriber', 0)])), { session: { name: 'alice', subscriber: 0 } });
  assert.deepEqual(jsonDocument(null), {});
});

test('a list gives its items as a JSON array whatever their number; XML is unchanged', () => {
  const tracks = (count: number) =>
    list(
      'recenttracks',
      'track',
      Array.from({ length: count }, (_, i) => element('track', [element('name', `T${i}`)])),
      { page: '1' },
    );
  assert.deepEqual(jsonDocument(tracks(0)), { recenttracks: { track: [], '@attr': { page: '1' } } });
  assert.deepEqual(jsonDocument(tracks(1)), { recenttracks: { track: [{ name: 'T0' }], '@attr': { page: '1' } } });
  assert.equal(
    xmlDocument('ok', tracks(1)),
    '<?xml version="1.0" encoding="UTF-8"?>\n<lfm status="ok"><recenttracks page="1"><track><name>T0</name></track></recenttracks></lfm>\n',
  );
});
