// Time and timers come from the injectable clock (src/_internal/clock.ts), so that a test drives TTLs,
// sweeps, debounces, deadlines and retries with createClock() instead of waiting. The dev console's page script
// (browser code) reads time through its own `pageClock` object only. This scans src/ for a
// global timer or an ad-hoc reading of the time: a bare setTimeout/setInterval (and their clear*), performance.now() or Date.now(). A clock's own method (`clock.setTimeout(…)`, `clock.now()`) is
// not bare; `Date.now` passed as a value (the default of a `now` option, which clockOf() turns into the
// system clock) is the injection point, not a reading.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * A global timer or clock reading: not a property of something else (`x.setTimeout`), and called (not a
 * method declared in a type: `setTimeout(fn: …)`). `setImmediate` waits for no time (a turn of the loop).
 */
const GLOBAL_TIME =
  /(?<![.\w$])(?:(?:set|clear)(?:Timeout|Interval)\s*\((?!\s*\w+\??\s*:)|performance\.now\s*\(|Date\.now\s*\()/g;

/** Files allowed to use them, each with why. */
const ALLOWED: Readonly<Record<string, string>> = {
  '_internal/clock.ts': 'the clock module: the one place real timers and the wall clock are read',
  // The text of a program `mcp-fusion create` writes for the user (a template literal), not code of ours.
  'cli/create/projectCode.ts': 'the scaffolded project’s own source, written out as text',
  // Owned by another change in this round (the dev console's rework); moves onto the clock there.
};

/**
 * Browser scripts (no module of ours can be imported there), each with the one object allowed to use the
 * globals: the script's own clock, which the rest of the script calls instead.
 */
const PAGE_CLOCKS: Readonly<Record<string, string>> = {
  'console/page/console.js': 'pageClock',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') || relative(src, path).split('\\').join('/') in PAGE_CLOCKS ? [path] : [];
  });
}

/**
 * A page script without its clock object (`const <name> = { … };`, up to the first line that closes it at
 * the same indentation), blanked line for line so that line numbers stay true; throws when it has none.
 */
function withoutPageClock(file: string, text: string): string {
  const name = PAGE_CLOCKS[file];
  if (name === undefined) return text;
  const block = new RegExp(`^([ \\t]*)const ${name} = \\{\\n[\\s\\S]*?^\\1\\};$`, 'm');
  const found = block.exec(text);
  if (found === null) throw new Error(`${file} has no \`const ${name} = { … };\` (its clock object)`);
  return text.replace(block, (object) => object.replace(/[^\n]/g, ''));
}

/** The source without comments (a doc comment may mention `setTimeout(`); strings stay. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const files = sourceFiles(src);
const uses = files.flatMap((path) => {
  const file = relative(src, path).split('\\').join('/');
  return code(withoutPageClock(file, readFileSync(path, 'utf8')))
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(GLOBAL_TIME)].map((m) => ({ file, at: `${file}:${i + 1}: ${m[0]}` })));
});

describe('no global timers in src/', () => {
  it('reads time and sets timers only through the clock module (or a file listed with its reason)', () => {
    const stray = uses
      .filter((u) => !(u.file in ALLOWED))
      .map((u) => `${u.at} (use ${PAGE_CLOCKS[u.file] ?? 'a Clock: src/_internal/clock.ts'})`);
    expect(stray).toEqual([]);
  });

  it('lists only files that still need it (remove an entry once its file is on the clock)', () => {
    const needed = new Set(uses.map((u) => u.file));
    expect(Object.keys(ALLOWED).filter((file) => !needed.has(file))).toEqual([]);
  });

  it('scans the page scripts, where only their clock object uses the globals', () => {
    const pageClock = (text: string): string[] =>
      [...code(withoutPageClock('console/page/console.js', text)).matchAll(GLOBAL_TIME)].map((m) => m[0]);
    const script = (...body: string[]): string =>
      ['(() => {', '  const pageClock = {', '    now: () => Date.now(),', '  };', ...body, '})();'].join('\n');
    expect(pageClock(script('  pageClock.now();'))).toEqual([]);
    expect(pageClock(script('  setTimeout(step, 0);'))).toEqual(['setTimeout(']);
    expect(() => pageClock('setTimeout(step, 0);')).toThrow(/has no `const pageClock = \{ … \};`/);
    // The file itself is scanned: a use outside its object fails the first test above.
    expect(files.map((path) => relative(src, path).split('\\').join('/'))).toContain('console/page/console.js');
    expect(
      withoutPageClock('console/page/console.js', readFileSync(join(src, 'console/page/console.js'), 'utf8')),
    ).toMatch(/pageClock\.setTimeout\(/);
  });

  it('finds the forms it forbids, and passes a clock’s own methods', () => {
    const found = (line: string) => [...code(line).matchAll(GLOBAL_TIME)].map((m) => m[0]);
    expect(found('const t = setTimeout(fn, 5); clearTimeout(t);')).toEqual(['setTimeout(', 'clearTimeout(']);
    expect(found('const a = performance.now(); const b = Date.now ();')).toEqual(['performance.now(', 'Date.now (']);
    expect(found('globalThis.setInterval(fn, 1)')).toEqual([]);
    expect(found('clock?: { setTimeout(fn: () => void, ms: number): Timer };')).toEqual([]);
    expect(found('clock.setTimeout(fn, 5); this.#clock.setInterval(fn, 1); clock.now();')).toEqual([]);
    expect(found('const now = options.now ?? Date.now; // setTimeout(x)')).toEqual([]);
  });
});
