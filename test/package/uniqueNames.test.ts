import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('one name per concept', () => {
  it('defines no exported class, interface, type or enum name twice in src/ (re-exports are not definitions)', () => {
    const where = new Map<string, string[]>();
    for (const file of files(src))
      for (const m of readFileSync(file, 'utf8').matchAll(
        /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm,
      ))
        where.set(m[1]!, [...(where.get(m[1]!) ?? []), relative(src, file)]);
    const twice = [...where].filter(([, at]) => at.length > 1).map(([name, at]) => `${name}: ${at.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('names no two files of src/ alike (a folder’s `index.ts` barrel and `types.ts` aside: they are named by their folder)', () => {
    const where = new Map<string, string[]>();
    for (const file of files(src)) {
      const name = basename(file);
      if (name !== 'index.ts' && name !== 'types.ts')
        where.set(name, [...(where.get(name) ?? []), relative(src, file)]);
    }
    const twice = [...where].filter(([, at]) => at.length > 1).map(([name, at]) => `${name}: ${at.join(', ')}`);
    expect(twice).toEqual([]);
  });
});
