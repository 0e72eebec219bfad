import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { moveDirectory } from './search-lifecycle.service';

describe('moveDirectory', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mv-'));
    fs.mkdirSync(path.join(dir, 'a'));
    fs.writeFileSync(path.join(dir, 'a', 'entries.jsonl'), 'x\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('renames on the same filesystem', async () => {
    expect(await moveDirectory(path.join(dir, 'a'), path.join(dir, 'b'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'a'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'b', 'entries.jsonl'), 'utf8')).toBe('x\n');
  });

  it('copies across filesystems (EXDEV) and leaves the original for the caller', async () => {
    const exdev = async () => {
      throw Object.assign(new Error('cross-device link'), { code: 'EXDEV' });
    };
    expect(await moveDirectory(path.join(dir, 'a'), path.join(dir, 'b'), exdev)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'b', 'entries.jsonl'), 'utf8')).toBe('x\n');
    expect(fs.existsSync(path.join(dir, 'a'))).toBe(true);
  });

  it('fails on other errors', async () => {
    await expect(moveDirectory(path.join(dir, 'missing'), path.join(dir, 'c'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
