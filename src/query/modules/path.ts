/** `path [-e EV] base|dir|ext|volume [op value] [as name] ...`: parts of a Windows (UNC too) or Unix path. */
import { posix, win32 } from 'node:path';
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { checkOps, consumedOf, EQUALITY_OPS, optionalString, readFlags, requireItems, sourceText, storeExtracted } from './extract-common';

const PARTS = ['base', 'dir', 'ext', 'volume'] as const;
type Part = (typeof PARTS)[number];

const DRIVE = /^[A-Za-z]:/;
const UNC = /^[\\/]{2}[^\\/]+[\\/][^\\/]+/;

/** A path is a Windows one when it has a drive letter, a UNC prefix or a backslash. */
const isWindows = (p: string) => DRIVE.test(p) || p.includes('\\');

/** One part of a path, as Go's path/filepath names them; undefined when the path has none (an empty path, a Unix volume). */
export function pathPart(p: string, part: Part): string | undefined {
  if (p === '') return undefined;
  const win = isWindows(p);
  const lib = win ? win32 : posix;
  switch (part) {
    case 'volume': {
      if (!win) return undefined;
      const m = UNC.exec(p) ?? DRIVE.exec(p);
      return m ? m[0] : undefined;
    }
    case 'base': {
      const b = lib.basename(p);
      return b === '' ? (win ? '\\' : '/') : b;
    }
    case 'dir':
      return lib.dirname(p);
    case 'ext': {
      const b = lib.basename(p);
      const dot = b.lastIndexOf('.');
      return dot < 0 ? undefined : b.slice(dot);
    }
  }
}

export const pathModule: ModuleDef = {
  name: 'path',
  info:
    'Extract parts of a Windows (drive or UNC) or Unix path held in the entry data (or -e EV): base (last element), dir (all but the last), ext (extension of the base, with its dot), ' +
    'volume (Windows drive "C:" or UNC "\\\\host\\share"). Each may be filtered (== != ~ !~) and renamed with "as"; a part the path lacks is not extracted',
  examples: ['path base ext == ".txt"', 'path dir volume != "C:"', 'path base == "foo.txt" as foofiles', 'path -e Image base as exe'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value' });
    const ev = optionalString(flags.e);
    const items = requireItems(
      readExtractItems(r, (s) => s),
      'extraction (base, dir, ext or volume)',
    );
    for (const it of items) {
      if (!(PARTS as readonly string[]).includes(it.source)) throw new ModuleArgError(`unknown extraction "${it.source}" (extractions: ${PARTS.join(', ')})`);
    }
    checkOps(items, () => EQUALITY_OPS);
    return {
      produced: items.map((i) => i.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const p = text?.trim();
        return storeExtracted(e, items, (it) => (p === undefined ? undefined : pathPart(p, it.source as Part)));
      },
    };
  },
};
