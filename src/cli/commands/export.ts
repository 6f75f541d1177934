import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { archiveName, exportArchive } from '../../core/export/index.ts';
import { authenticatedClient } from '../api-client.ts';
import { parseCommandArgs, serverOption, type CommandRun } from '../command.ts';
import { withDirectUser } from '../direct.ts';

/** Writes the archive to `out`, replacing it only once complete (a failed export leaves no half file). */
async function save(body: NodeJS.ReadableStream, out: string): Promise<number> {
  const partial = `${out}.partial`;
  await pipeline(body, fs.createWriteStream(partial));
  fs.renameSync(partial, out);
  return fs.statSync(out).size;
}

/** The archive from the running server, under the name it gives. */
async function fromServer(server: string | undefined, out: string | undefined): Promise<{ out: string; bytes: number }> {
  const response = await authenticatedClient(server).download('/xrpc/app.svc.actor.exportData');
  const named = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const file = out ?? (named ? decodeURIComponent(named) : 'earshot-export.zip');
  return { out: file, bytes: await save(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), file) };
}

/** The archive made by this process from the database (no server running). */
function fromDatabase(handle: string | undefined, out: string | undefined): Promise<{ out: string; bytes: number }> {
  return withDirectUser(handle, async (ctx, user) => {
    const file = out ?? archiveName(user.handle);
    return { out: file, bytes: await save(await exportArchive(ctx.db, user), file) };
  });
}

export const exportData: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(
    command,
    args,
    { ...serverOption, out: { type: 'string' }, direct: { type: 'boolean', default: false }, user: { type: 'string' } },
    0,
  );
  const { out, bytes } = values.direct ? await fromDatabase(values.user, values.out) : await fromServer(values.server, values.out);
  console.log(`Saved ${out} (${(bytes / 1_048_576).toFixed(1)} MiB); \`earshot import ${out}\` reads it back`);
};
