// The one type-check pass: the server project (src/ with its tests, scripts, benchmarks, load tests)
// and the web app, which references it and so reads the server's declarations instead of checking
// its sources again. Incremental: the build info under node_modules/.cache makes a re-run quick.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const result = spawnSync(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-b', 'web'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
