// `npm run bench [name…]`: runs the named benchmarks, or all of them. Sizes come from BENCH_* variables.
import { allTimeTopBenchmark } from './all-time-top.ts';
import { feedPageBenchmark } from './feed-page.ts';
import { fileHostSyncBenchmark } from './filehost-sync.ts';
import { hotReadsBenchmark } from './hot-reads.ts';
import { hotReadsCostBenchmark } from './hot-reads-cost.ts';
import { importHeadOfLineBenchmark } from './import-head-of-line.ts';
import { importThroughputBenchmark } from './import-throughput.ts';
import { lastfmAuthBenchmark } from './lastfm-auth.ts';
import { libraryScanBenchmark } from './library-scan.ts';
import { memoryBenchmark } from './memory.ts';
import { searchBenchmark } from './search.ts';
import { singleListenBenchmark } from './single-listen.ts';
import { listenBrainzListensBenchmark } from './listenbrainz-listens.ts';
import { listenBrainzSubmitBenchmark } from './listenbrainz-submit.ts';
import { mixedLoadBenchmark } from './mixed-load.ts';
import { processesBenchmark } from './processes.ts';
import { profileReadsBenchmark } from './profile-reads.ts';
import { rollupIngestBenchmark } from './rollup-ingest.ts';
import { songsFilterBenchmark } from './songs-filter.ts';
import { subsonicLibraryBenchmark } from './subsonic-library.ts';
import { subsonicPeerBenchmark } from './subsonic-peer.ts';
import { webProfileBenchmark } from './web-profile.ts';
import { wrappedBenchmark } from './wrapped.ts';

const benchmarks: Record<string, () => Promise<void>> = {
  'all-time-top': allTimeTopBenchmark,
  'feed-page': feedPageBenchmark,
  'filehost-sync': fileHostSyncBenchmark,
  'hot-reads': hotReadsBenchmark,
  'hot-reads-cost': hotReadsCostBenchmark,
  'import-head-of-line': importHeadOfLineBenchmark,
  'import-throughput': importThroughputBenchmark,
  'lastfm-auth': lastfmAuthBenchmark,
  'library-scan': libraryScanBenchmark,
  'listenbrainz-listens': listenBrainzListensBenchmark,
  'listenbrainz-submit': listenBrainzSubmitBenchmark,
  memory: memoryBenchmark,
  'mixed-load': mixedLoadBenchmark,
  processes: processesBenchmark,
  'profile-reads': profileReadsBenchmark,
  'rollup-ingest': rollupIngestBenchmark,
  search: searchBenchmark,
  'single-listen': singleListenBenchmark,
  'songs-filter': songsFilterBenchmark,
  'subsonic-library': subsonicLibraryBenchmark,
  'subsonic-peer': subsonicPeerBenchmark,
  'web-profile': webProfileBenchmark,
  wrapped: wrappedBenchmark,
};

const selected = process.argv.slice(2);
const unknown = selected.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(2);
}
for (const name of selected.length > 0 ? selected : Object.keys(benchmarks)) {
  await benchmarks[name]!();
}
