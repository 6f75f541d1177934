/** Reading the export archive back in tests. */
import yauzl from 'yauzl';

/** Every entry of a zip, by name, as text. */
export async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const entries = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
        zip.readEntry();
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** An archive's listens, without what names the account and when the server took each play. */
export const exportedListens = (entries: Map<string, string>) =>
  [...entries]
    .filter(([name]) => name.startsWith('listens/'))
    .flatMap(([, text]) =>
      text
        .trim()
        .split('\n')
        .map((line) => {
          const { user_name, inserted_at, ...listen } = JSON.parse(line);
          return listen;
        }),
    );
