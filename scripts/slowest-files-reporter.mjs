// A test reporter that records how long each test file took from start to end, one line per file
// (milliseconds, tab, the file), written synchronously to the file EARSHOT_TEST_TIMES names as each
// file ends: a run with --test-force-exit ends before a reporter's own output stream would be
// flushed. scripts/run-tests.mjs adds it beside the spec reporter and prints the slowest files after
// the run: where the suite's time goes, for whoever wants it shorter (docs/development.md).
import { appendFileSync } from 'node:fs';

export default async function* slowestFiles(source) {
  const started = new Map();
  for await (const event of source) {
    const { name, file, nesting } = event.data ?? {};
    // Each file is reported as a test of its own at nesting 0, named by its path.
    if (nesting !== 0 || !file || name !== file) continue;
    if (event.type === 'test:dequeue') started.set(file, Date.now());
    if (event.type === 'test:complete' && started.has(file) && process.env.EARSHOT_TEST_TIMES) {
      appendFileSync(process.env.EARSHOT_TEST_TIMES, `${Date.now() - started.get(file)}\t${file}\n`);
    }
  }
  yield '';
}
