import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every module the static import graph of `entry` reaches: relative files and bare package names. */
function graph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      if (m[1] !== undefined) continue; // type-only imports vanish at run time
      const spec = m[2]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('optional peers stay optional', () => {
  it('the root entry never reaches ioredis, xstate, jose, @toon-format/toon, @opentelemetry/api or the v1 SDK statically', () => {
    const { packages, files } = graph(resolve(src, 'index.ts'));
    expect([...packages].sort()).not.toEqual(expect.arrayContaining(['ioredis']));
    for (const peer of ['ioredis', 'xstate', 'jose', '@toon-format/toon', '@opentelemetry/api', '@modelcontextprotocol/sdk']) expect(packages.has(peer), peer).toBe(false);
    // Tracing is reachable (the option is on the root's types) but imports the API only as types.
    expect([...files].some((f) => f.endsWith('/tracing/RequestTracing.ts'))).toBe(true);
    expect([...files].some((f) => f.includes('/redis/'))).toBe(false);
  });

  it('the core concepts import neither the SDK nor the server layer at run time', () => {
    for (const concept of ['builder/FluentToolBuilder.ts', 'registry/ToolRegistry.ts', 'state-sync/index.ts', 'fsm/index.ts', 'domain/index.ts']) {
      const { packages, files } = graph(resolve(src, concept));
      expect([...packages].filter((p) => p.startsWith('@modelcontextprotocol/')), concept).toEqual([]);
      expect([...files].filter((f) => f.includes('/src/server/')), concept).toEqual([]);
    }
  });
});
