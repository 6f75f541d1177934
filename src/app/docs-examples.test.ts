// Every curl example in the documentation runs, in order, against a real server: a reader who
// copies them gets the answers the docs promise. The convention (stated at the top of docs/api.md):
// a ```sh block that contains `curl` is an example; `$EARSHOT` is the API host, `$SCROBBLER` the
// scrobbler host; a block may set variables (a token, a key, an id) for later blocks of the same
// file, since each file's blocks run concatenated in one bash process with `set -euo pipefail`.
// Blocks meant only to be read use another fence language (```text, ```console).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../toolkit/free-port-testing.ts';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, oneBackend } from './testing.ts';
import { PACKAGE_ROOT } from '../toolkit/package-root.ts';

interface Example {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
}

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(full);
      return entry.name.endsWith('.md') ? [full] : [];
    });
  return [path.join(PACKAGE_ROOT, 'README.md'), ...walk(path.join(PACKAGE_ROOT, 'docs')).sort()];
}

/** The ```sh blocks that call curl, in file order. */
function curlExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```sh') continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
    const code = body.join('\n');
    if (/\bcurl\b/.test(code)) examples.push({ line: start + 1, code });
  }
  return examples;
}

/** Each block is preceded by a note of its number, so a failure names the block that was running. */
function script(examples: Example[], progressFile: string): string {
  const parts = examples.map((example, index) => `echo ${index} > ${JSON.stringify(progressFile)}\n${example.code}\n`);
  return `set -euo pipefail\n${parts.join('')}echo done > ${JSON.stringify(progressFile)}\n`;
}

interface BashResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Asynchronous, since the server under test answers from this same process. */
function runBash(code: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<BashResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', code], { cwd: options.cwd, env: options.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

function toolMissing(tool: string): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0;
}

const missing = ['curl', 'jq'].filter(toolMissing);
const skip = missing.length > 0 && process.env.CI !== 'true' ? `${missing.join(' and ')} not installed` : false;
const relative = (file: string) => path.relative(PACKAGE_ROOT, file);

test('the documentation has curl examples to run', () => {
  const count = markdownFiles().reduce((sum, file) => sum + curlExamples(fs.readFileSync(file, 'utf8')).length, 0);
  assert.ok(count >= 20, `only ${count} curl examples found`);
});

for (const file of markdownFiles()) {
  const examples = curlExamples(fs.readFileSync(file, 'utf8'));
  if (examples.length === 0) continue;
  test(`the curl examples of ${relative(file)} work`, { skip, timeout: 120_000 }, async () => {
    assert.deepEqual(missing, [], `${missing.join(' and ')} must be installed to run the documentation's examples (CI=true)`);
    const [port, scrobblerPort] = [await freePort(), await freePort()];
    const app = await startTestApp(oneBackend(), {
      port,
      scrobblerPort,
      publicUrl: `http://127.0.0.1:${port}`,
      scrobblerPublicUrl: `http://127.0.0.1:${scrobblerPort}`,
    });
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-docs-'));
    try {
      const progressFile = path.join(workDir, '.block');
      const result = await runBash(script(examples, progressFile), {
        cwd: workDir,
        timeoutMs: 90_000,
        env: {
          ...process.env,
          EARSHOT: app.apiUrl,
          SCROBBLER: app.scrobblerUrl,
          // Nothing an example writes (curl -OJ) lands outside the scratch folder.
          HOME: workDir,
        },
      });
      const progress = fs.existsSync(progressFile) ? fs.readFileSync(progressFile, 'utf8').trim() : '0';
      if (result.status !== 0 || progress !== 'done') {
        const failed = examples[Number(progress)] ?? examples[0]!;
        assert.fail(
          `${relative(file)}: the sh block at line ${failed.line} failed (exit ${result.status ?? result.signal}):\n` +
            `${failed.code}\n--- stdout (tail)\n${result.stdout.slice(-2000)}\n--- stderr (tail)\n${result.stderr.slice(-2000)}`,
        );
      }
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
      await app.close();
    }
  });
}
