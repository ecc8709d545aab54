import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

it('mcp-fusion/redis exports exactly these names', async () => {
  expect(Object.keys(await import('../../src/redis/index.js')).sort()).toEqual([
    'BullTaskQueue',
    'RedisEventBus',
    'RedisEventStore',
    'RedisFsmStore',
    'RedisNonceStore',
    'RedisRateLimitStore',
    'RedisSessionStore',
    'RedisTaskStore',
    'failFastClusterOptions',
    'failFastRedisOptions',
    'startTaskWorker',
  ]);
});

it('the root entry never reaches src/redis or ioredis at run time (type-only imports are erased)', () => {
  const seen = new Set<string>();
  const reached: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(
      /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
    )) {
      if (!specifier!.startsWith('.')) {
        reached.push(specifier!);
        continue;
      }
      visit(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')));
    }
    for (const [, specifier] of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) reached.push(specifier!);
  };
  visit(join(src, 'index.ts'));
  expect([...seen].filter((f) => f.startsWith(join(src, 'redis')))).toEqual([]);
  expect(reached.filter((s) => s === 'ioredis' || s.startsWith('ioredis/'))).toEqual([]);
  expect(seen.size).toBeGreaterThan(20);
});
