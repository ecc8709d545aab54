// Prints the import cycles of src/: the strongly connected components of the file import graph with more than one
// file, largest first, plus the number of .ts files per folder. `npx tsx scripts/importCycles.ts [--values]`
// (--values drops `import type` edges, which vanish at run time; the default counts every edge, types included).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const valuesOnly = process.argv.includes('--values');

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.\.?\/[^'"]+)['"]/gm;
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s/;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each file's relative imports, as paths relative to src/. */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of listFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(SPECIFIER)) {
      const lineStart = text.lastIndexOf('\n', m.index) + 1;
      const statementStart = text.lastIndexOf(';', m.index);
      const head = text.slice(Math.max(lineStart, statementStart + 1, 0), m.index).trimStart();
      if (valuesOnly && (TYPE_ONLY.test(head) || TYPE_ONLY.test(text.slice(statementStart + 1, m.index)))) continue;
      const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
      targets.push(relative(SRC, target));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** Tarjan's strongly connected components. */
export function components(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out.filter((c) => c.length > 1).sort((a, b) => b.length - a.length);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const perFolder = new Map<string, number>();
  for (const file of graph.keys()) {
    const folder = dirname(file);
    perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
  }
  process.stdout.write(`${graph.size} files in src/ (${valuesOnly ? 'value imports only' : 'all imports'})\n`);
  process.stdout.write('files per folder:\n');
  for (const [folder, n] of [...perFolder].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${n}\t${folder}\n`);
  const cycles = components(graph);
  process.stdout.write(`${cycles.length} cycles; largest ${cycles[0]?.length ?? 0} files\n`);
  for (const cycle of cycles) process.stdout.write(`- ${cycle.length}: ${cycle.join(' ')}\n`);
}
