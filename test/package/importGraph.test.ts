import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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
    for (const peer of [
      'ioredis',
      'xstate',
      'jose',
      '@toon-format/toon',
      '@opentelemetry/api',
      '@modelcontextprotocol/sdk',
      'bullmq',
    ])
      expect(packages.has(peer), peer).toBe(false);
    // Tracing is reachable (the option is on the root's types) but imports the API only as types.
    expect([...files].some((f) => f.endsWith('/tracing/RequestTracing.ts'))).toBe(true);
    expect([...files].some((f) => f.includes('/redis/'))).toBe(false);
  });

  it('the redis entry loads bullmq (task workers) only when a queue or worker is used, never statically', () => {
    const { packages, files } = graph(resolve(src, 'redis/index.ts'));
    expect(packages.has('bullmq')).toBe(false);
    expect([...files].some((f) => f.endsWith('/redis/startTaskWorker.ts'))).toBe(true);
  });

  it('the dev console (hub, routes, page) is loaded lazily: the root entry reaches none of it statically', () => {
    const { files } = graph(resolve(src, 'index.ts'));
    expect([...files].filter((f) => f.includes('/src/console/'))).toEqual([]);
    expect([...files].some((f) => f.endsWith('/server/console/devConsole.ts'))).toBe(true);
  });

  it('the core concepts import neither the SDK nor the server layer at run time', () => {
    for (const concept of [
      'builder/FluentToolBuilder.ts',
      'registry/ToolRegistry.ts',
      'state-sync/index.ts',
      'fsm/index.ts',
      'domain/index.ts',
    ]) {
      const { packages, files } = graph(resolve(src, concept));
      expect(
        [...packages].filter((p) => p.startsWith('@modelcontextprotocol/')),
        concept,
      ).toEqual([]);
      expect(
        [...files].filter((f) => f.includes('/src/server/')),
        concept,
      ).toEqual([]);
    }
  });
});

/**
 * The folders of src/, lowest first: a folder may import (types included) only folders before it, so the
 * folder graph is acyclic and its order tells the architecture (docs/contributing.md draws it).
 */
const LAYERS = [
  'errors',
  '_internal',
  'ledger', // the one accountant of bytes held for clients
  'logging',
  'principal',
  'fsm',
  'state-sync',
  'limits',
  'session',
  'tasks', // leaves: the operator's log, identity, workflow machines, policies, limit declarations, session records, task records
  'protocol', // the tool contract, results, wire shapes and user-facing texts
  'domain',
  'auth',
  'presenter',
  'completion',
  'builder',
  'prompts',
  'resources', // what users declare
  'tracing', // spans and metrics
  'surface',
  'workflow',
  'skills', // workflows and hand-written skills, published through the SDK's skills extension
  'runtime', // what is listed, the gate at run time, the call path
  'adapter',
  'registry', // the SDK adapter, the public registry
  'console', // the dev console (loaded lazily by the server's devConsole option)
  'server', // the HTTP and stdio servers
  'advanced', // the parts the framework composes, as an entry of their own
  'testing',
  'redis',
  'cli', // the other entries
] as const;

/**
 * The subfolders of the folders split by subsystem, lowest first, with `(root)` for the files directly in the folder:
 * inside one of these folders a file may import (types included) only its own subfolder and those before it.
 */
const SUBLAYERS = {
  // The serve options, the HTTP limits and the server built per connection; then the HTTP wire pieces (errors,
  // JSON answers, bodies, SSE frames, the call budget); Node's request and response; the legacy sessions and their
  // transport; the modern dispatcher; the listen streams; stdio; the dev console's mount; the front as middleware;
  // the app that wires them (createFusionApp, startServer).
  server: ['(root)', 'http', 'node', 'legacy', 'modern', 'listen', 'stdio', 'console', 'middleware', 'app'],
  // requestState sealing; the parts every call shares (options, core, deadlines, the extra, rate limits); the stage
  // list and the call shapes; the tool path; prompts, resources and completions; tasks; the runtime of a registry.
  runtime: ['request-state', 'core', 'stages', 'tools', 'content', 'tasks', '(root)'],
} as const satisfies Record<string, readonly string[]>;

/** Every relative import (static, type-only, re-export or dynamic) of every file under src/, by folder. */
function folderEdges(depth: 1 | 2 = 1): Array<{ from: string; to: string; file: string; spec: string }> {
  const edges: Array<{ from: string; to: string; file: string; spec: string }> = [];
  const folderOf = (file: string): string => {
    const parts = relative(src, file).split(sep);
    if (depth === 2)
      return parts.length <= 2 ? `${parts.length === 1 ? '' : parts[0]}/(root)` : `${parts[0]}/${parts[1]}`;
    return parts.length === 1 ? '(root)' : parts[0]!;
  };
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.\.?\/[^'"]+)['"]/gm)) {
          const target = resolve(dirname(path), m[1]!);
          const from = folderOf(path);
          const to = folderOf(target);
          if (from !== to) edges.push({ from, to, file: relative(src, path), spec: m[1]! });
        }
      }
    }
  };
  visit(src);
  return edges;
}

describe('the folder layers', () => {
  it('declares every folder of src/ exactly once', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect([...LAYERS].sort()).toEqual(folders);
  });

  it('has every folder import only folders below it (types included), so the folder graph is acyclic', () => {
    const rank = new Map<string, number>(LAYERS.map((name, i) => [name, i]));
    const upward = folderEdges()
      .filter(({ from, to }) => from !== '(root)' && (to === '(root)' || rank.get(to)! > rank.get(from)!))
      .map(({ from, to, file, spec }) => `${from} -> ${to} (${file} imports ${spec})`);
    expect(upward).toEqual([]);
  });

  it('declares every subfolder of the folders split by subsystem exactly once', () => {
    for (const [folder, order] of Object.entries(SUBLAYERS)) {
      const found = readdirSync(join(src, folder), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
      expect([...order].sort(), folder).toEqual(['(root)', ...found].sort());
    }
  });

  it('has every subfolder of those folders import only its own and lower subfolders, so each is acyclic', () => {
    const upward = folderEdges(2)
      .map((edge) => ({ ...edge, top: edge.from.split('/')[0]! }))
      .filter(({ top, to }) => top in SUBLAYERS && to.split('/')[0] === top)
      .filter(({ top, from, to }) => {
        const order: readonly string[] = SUBLAYERS[top as keyof typeof SUBLAYERS];
        return order.indexOf(to.split('/')[1]!) > order.indexOf(from.split('/')[1]!);
      })
      .map(({ from, to, file, spec }) => `${from} -> ${to} (${file} imports ${spec})`);
    expect(upward).toEqual([]);
  });

  it('keeps builder/ free of the runtime: it reaches nothing above the declarations', () => {
    const reached = new Set(
      folderEdges()
        .filter((e) => e.from === 'builder')
        .map((e) => e.to),
    );
    for (const runtimeFolder of ['surface', 'workflow', 'runtime', 'adapter', 'registry', 'server'])
      expect(reached.has(runtimeFolder), runtimeFolder).toBe(false);
  });
});
