// @vitest-environment node
// Stand-ins for the browser's File System entries: the walk uses only what they give here.
import { describe, expect, it } from 'vitest';
import { chosenFromDrop, chosenFromInput } from './chosen-files.ts';

const file = (name: string, relativePath = '') => Object.assign(new File(['x'], name), { webkitRelativePath: relativePath });

/** A dropped file or folder as webkitGetAsEntry gives it; a folder's reader answers two entries a call, as readEntries answers part by part. */
function entry(fullPath: string, children?: object[]): object {
  const name = fullPath.split('/').at(-1)!;
  if (!children) return { isDirectory: false, fullPath, file: (resolve: (file: File) => void) => resolve(file(name)) };
  return {
    isDirectory: true,
    fullPath,
    createReader: () => {
      let at = 0;
      return { readEntries: (resolve: (part: object[]) => void) => resolve(children.slice(at, (at += 2))) };
    },
  };
}

describe('chosen files', () => {
  it("the file picker's files come as given; the folder picker's as a walk of the folder takes them", () => {
    const chosen = chosenFromInput([
      file('b.json'),
      file('10.jsonl', 'lb/listens/2024/10.jsonl'),
      file('cover.jpg', 'lb/cover.jpg'),
      file('2.jsonl', 'lb/listens/2024/2.jsonl'),
      file('a.zip'),
    ]);
    expect(chosen.map(({ path, inFolder }) => [path, inFolder])).toEqual([
      ['b.json', false],
      ['a.zip', false],
      ['lb/listens/2024/2.jsonl', true],
      ['lb/listens/2024/10.jsonl', true],
    ]);
  });

  it('a drop of a folder walks it whole, part by part, and keeps loose files in the order dropped', async () => {
    const folder = entry('/lb', [
      entry('/lb/listens', [
        entry('/lb/listens/2023', [entry('/lb/listens/2023/12.jsonl'), entry('/lb/listens/2023/9.jsonl')]),
        entry('/lb/listens/2024', [entry('/lb/listens/2024/1.jsonl')]),
      ]),
      entry('/lb/user.json'),
      entry('/lb/photo.png'),
    ]);
    const item = (dropped: object, loose?: File) => ({ kind: 'file', webkitGetAsEntry: () => dropped, getAsFile: () => loose ?? null });
    const data = { items: [item(entry('/export.zip'), file('export.zip')), item(folder), { kind: 'string' }] } as unknown as DataTransfer;
    const chosen = await chosenFromDrop(data);
    expect(chosen.map(({ path, inFolder }) => [path, inFolder])).toEqual([
      ['export.zip', false],
      ['lb/listens/2023/9.jsonl', true],
      ['lb/listens/2023/12.jsonl', true],
      ['lb/listens/2024/1.jsonl', true],
      ['lb/user.json', true],
    ]);
  });
});
