// Moves files by a committed mapping and rewrites every relative specifier that reaches a moved file (or, inside a
// moved file, any file): `npx tsx scripts/applyMoves.ts scripts/moves/round3.json [--dry-run]`.
//
// Re-runnable: files already at their new path are skipped, and every specifier is resolved against the tree as it
// is before this run's moves (falling back to the mapping for a specifier still naming an old path), so a second run
// changes nothing. Everything is computed before anything is written; an import it cannot resolve (in src/, test/,
// bench/, scripts/ or examples/) stops the run with the list, and nothing is changed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CODE_DIRS = ['src', 'test', 'bench', 'scripts', 'examples'];
const CODE_EXT = /\.(?:ts|mts|cts|tsx|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);
/** Relative specifiers: `from '…'`, `import('…')`, `import '…'`, and `new URL('…', import.meta.url)`. */
const SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*|\bnew\s+URL\(\s*)(['"])(\.\.?\/[^'"\n]*|\.\.?)\2(\s*,\s*import\.meta\.url)?/gm;
const TS_FENCE = /^```(?:ts|typescript|tsx)\b[^\n]*\n([\s\S]*?)^```/gm;

interface Mapping {
  moves: Record<string, string>;
}

const toPosix = (p: string): string => p.split(sep).join('/');
const rel = (abs: string): string => toPosix(relative(ROOT, abs));

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP_DIRS.has(e.name)) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? walk(path, keep) : keep(e.name) ? [path] : [];
  });
}

function loadMapping(file: string): Map<string, string> {
  const { moves } = JSON.parse(readFileSync(file, 'utf8')) as Mapping;
  const map = new Map<string, string>();
  const targets = new Set<string>();
  for (const [from, to] of Object.entries(moves)) {
    if (targets.has(to)) throw new Error(`mapping moves two files to ${to}`);
    if (from === to) throw new Error(`mapping moves ${from} onto itself`);
    targets.add(to);
    map.set(resolve(ROOT, from), resolve(ROOT, to));
  }
  return map;
}

/** The file (or folder, for `new URL`) a specifier names, in the tree as it is now; undefined when none. */
function resolveSpecifier(
  fromDir: string,
  spec: string,
  isUrl: boolean,
  moves: Map<string, string>,
): string | undefined {
  const base = resolve(fromDir, spec);
  const candidates = isUrl
    ? [base]
    : spec.endsWith('.js')
      ? [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base]
      : spec.endsWith('.mjs')
        ? [base.replace(/\.mjs$/, '.mts'), base]
        : [base, `${base}.ts`, join(base, 'index.ts')];
  for (const c of candidates) if (existsSync(c) && (isUrl || statSync(c).isFile())) return c;
  // A specifier that still names the old path of a file an earlier run moved.
  for (const c of candidates) if (moves.has(c) && existsSync(moves.get(c)!)) return c;
  return undefined;
}

/** The specifier from `fromFile` to `target`, in the style of `original` (extension kept as written). */
function specifierTo(fromFile: string, target: string, original: string, isUrl: boolean): string {
  let path = toPosix(relative(dirname(fromFile), target));
  if (!isUrl) {
    if (original.endsWith('.js')) path = path.replace(/\.tsx?$/, '.js');
    else if (original.endsWith('.mjs')) path = path.replace(/\.mts$/, '.mjs');
    else if (!/\.[cm]?[jt]sx?$/.test(original)) {
      if (path.endsWith('/index.ts') && !original.endsWith('/index')) path = path.slice(0, -'/index.ts'.length);
      else path = path.replace(/\.ts$/, '');
    }
  }
  if (path === '') path = '.';
  // A folder URL keeps its trailing slash: `new URL('../', …)` names the folder, `new URL('..', …)` its parent's entry.
  if (isUrl && original.endsWith('/') && !path.endsWith('/')) path = `${path}/`;
  return path.startsWith('.') ? path : `./${path}`;
}

interface Outcome {
  text: string;
  changed: number;
  unresolved: string[];
}

function rewriteCode(
  text: string,
  file: string,
  newFile: string,
  moves: Map<string, string>,
  located: (abs: string) => string,
): Outcome {
  let changed = 0;
  const unresolved: string[] = [];
  const out = text.replace(SPECIFIER, (whole, head: string, quote: string, spec: string, url?: string) => {
    const isUrl = head.trimStart().startsWith('new');
    if (isUrl && url === undefined) return whole;
    const target = resolveSpecifier(dirname(file), spec, isUrl, moves);
    if (target === undefined) {
      unresolved.push(`${rel(file)}: '${spec}'`);
      return whole;
    }
    const next = specifierTo(newFile, located(target), spec, isUrl);
    if (next === spec) return whole;
    changed++;
    return `${head}${quote}${next}${quote}${url ?? ''}`;
  });
  return { text: out, changed, unresolved };
}

/** Mentions of moved files by their path from the repository root (`src/server/x.ts`, `dist/server/x.js`). */
function rewriteMentions(text: string, mentions: Array<[RegExp, string]>): { text: string; changed: number } {
  let changed = 0;
  let out = text;
  for (const [pattern, replacement] of mentions)
    out = out.replace(pattern, () => {
      changed++;
      return replacement;
    });
  return { text: out, changed };
}

function mentionPatterns(moves: Map<string, string>): Array<[RegExp, string]> {
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const patterns: Array<[RegExp, string]> = [];
  for (const [from, to] of moves) {
    const oldRel = rel(from);
    const newRel = rel(to);
    // Not when it is the tail of a longer path (`packages/server/src/server/x.ts` is the SDK's).
    patterns.push([new RegExp(`(?<![\\w-]/)(?<![\\w-])${escape(oldRel)}(?![\\w.])`, 'g'), newRel]);
    if (!oldRel.startsWith('src/')) continue;
    // A path tail in a string literal (`f.endsWith('/server/x.ts')`).
    const oldTail = oldRel.slice('src'.length);
    patterns.push([new RegExp(`(?<=['"\`])${escape(oldTail)}(?=['"\`])`, 'g'), newRel.slice('src'.length)]);
    const oldDist = oldRel.slice('src/'.length).replace(/\.ts$/, '');
    const newDist = newRel.slice('src/'.length).replace(/\.ts$/, '');
    for (const prefix of ['dist/', 'dist/cjs/'])
      for (const ext of ['.js', '.d.ts', '.js.map'])
        patterns.push([
          new RegExp(`(?<![\\w-]/)(?<![\\w-])${escape(prefix + oldDist + ext)}(?![\\w.])`, 'g'),
          prefix + newDist + ext,
        ]);
  }
  return patterns;
}

function main(): void {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const mappingFile = args.find((a) => !a.startsWith('--'));
  if (mappingFile === undefined) throw new Error('usage: tsx scripts/applyMoves.ts <mapping.json> [--dry-run]');
  const moves = loadMapping(resolve(mappingFile));

  const toMove = new Map<string, string>();
  for (const [from, to] of moves) {
    const fromThere = existsSync(from);
    const toThere = existsSync(to);
    if (fromThere && toThere) throw new Error(`both ${rel(from)} and ${rel(to)} exist; merge them by hand first`);
    if (fromThere) toMove.set(from, to);
    else if (!toThere) process.stdout.write(`gone (neither path exists, skipped): ${rel(from)}\n`);
  }
  const located = (abs: string): string => toMove.get(abs) ?? moves.get(abs) ?? abs;

  const writes = new Map<string, string>();
  const unresolved: string[] = [];
  let specifiers = 0;
  let mentions = 0;
  const patterns = mentionPatterns(moves);

  const codeFiles = CODE_DIRS.flatMap((d) => walk(join(ROOT, d), (n) => CODE_EXT.test(n)));
  for (const file of codeFiles) {
    const text = readFileSync(file, 'utf8');
    const code = rewriteCode(text, file, located(file), moves, located);
    unresolved.push(...code.unresolved);
    const named = rewriteMentions(code.text, patterns);
    specifiers += code.changed;
    mentions += named.changed;
    if (named.text !== text) writes.set(file, named.text);
  }

  // The tools' configuration names test files by path (vitest's pools, CI scripts).
  const config = [
    'vitest.config.ts',
    'package.json',
    ...walk(join(ROOT, '.ci'), () => true),
    ...walk(join(ROOT, 'scripts'), (n) => n.endsWith('.sh')),
  ]
    .map((f) => resolve(ROOT, f))
    .filter((f) => existsSync(f));
  for (const file of config) {
    const text = readFileSync(file, 'utf8');
    const named = rewriteMentions(text, patterns);
    mentions += named.changed;
    if (named.text !== text) writes.set(file, named.text);
  }

  const markdown = [
    ...walk(join(ROOT, 'docs'), (n) => n.endsWith('.md')),
    ...walk(join(ROOT, 'bench'), (n) => n.endsWith('.md')),
    join(ROOT, 'README.md'),
  ].filter((f) => existsSync(f));
  for (const file of markdown) {
    const text = readFileSync(file, 'utf8');
    // Docs blocks import their own virtual files too ('./registry.js'): only those that reach a file are rewritten.
    const blocks = text.replace(TS_FENCE, (block: string) => {
      const code = rewriteCode(block, file, file, moves, located);
      specifiers += code.changed;
      return code.text;
    });
    const named = rewriteMentions(blocks, patterns);
    mentions += named.changed;
    if (named.text !== text) writes.set(file, named.text);
  }

  // Specifiers inside generated code (template strings, fixtures written at run time) name no file of the tree;
  // they are left as written. One that names a moved file's name but reaches nothing is a stale import: stop.
  const movedNames = new Set([...moves.keys()].map((f) => f.slice(f.lastIndexOf(sep) + 1).replace(/\.ts$/, '')));
  const stale = unresolved.filter((u) => movedNames.has(u.replace(/^.*\/([^/']+?)(?:\.[cm]?[jt]sx?)?'$/, '$1')));
  for (const u of unresolved) if (!stale.includes(u)) process.stdout.write(`left as written (names no file): ${u}\n`);
  if (stale.length > 0) {
    process.stderr.write(`unresolved imports of moved files (nothing was changed):\n  ${stale.join('\n  ')}\n`);
    process.exit(1);
  }

  for (const [from, to] of toMove) process.stdout.write(`move ${rel(from)} -> ${rel(to)}\n`);
  for (const file of writes.keys()) process.stdout.write(`rewrite ${rel(file)}\n`);
  process.stdout.write(
    `${toMove.size} files moved, ${moves.size - toMove.size} already in place or gone; ` +
      `${specifiers} specifiers and ${mentions} path mentions rewritten in ${writes.size} files` +
      `${dryRun ? ' (dry run: nothing written)' : ''}\n`,
  );
  if (dryRun) return;
  for (const [file, text] of writes) writeFileSync(file, text);
  for (const [from, to] of toMove) {
    mkdirSync(dirname(to), { recursive: true });
    execFileSync('git', ['mv', rel(from), rel(to)], { cwd: ROOT, stdio: 'inherit' });
  }
}

main();
