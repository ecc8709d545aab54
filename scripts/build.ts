// `npm run build` (and `prepack`): dist/ holds the ES modules and their types (tsc), dist/cjs/ the same
// modules as CommonJS with their own types, for `require('mcp-fusion')`.
// - ESM: `tsc -p tsconfig.build.json` (JavaScript, .d.ts, source and declaration maps pointing into src/).
// - CommonJS: esbuild converts each ESM file of dist/ one to one (no bundling, so `mcp-fusion`,
//   `mcp-fusion/redis` and `mcp-fusion/testing` share one copy of every class), chaining tsc's source maps.
//   Dynamic `import()` of optional peers stays `import()`, so they stay lazy and ESM-only peers load too.
//   `import.meta.url` becomes the file's own URL. The dev console's page files are copied beside its modules. dist/cjs/package.json says `"type": "commonjs"`, so the
//   copied .d.ts files there describe CommonJS modules. The CLI (bin/) runs the ESM build only.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const cjs = join(dist, 'cjs');
/** ESM-only parts of dist/ (the CLI) that get no CommonJS copy. */
const esmOnly = new Set(['cli']);

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

const converted = files(dist).filter((f) => !esmOnly.has(relative(dist, f).split(/[\\/]/)[0]!));
const js = converted.filter((f) => f.endsWith('.js'));
const usesImportMeta = js.filter((f) => readFileSync(f, 'utf8').includes('import.meta'));
const common = { outdir: cjs, outbase: dist, format: 'cjs', platform: 'node', target: 'node20', sourcemap: true, bundle: false, logLevel: 'warning' } as const;
const results = await Promise.all([
  build({ ...common, entryPoints: js.filter((f) => !usesImportMeta.includes(f)) }),
  build({
    ...common,
    entryPoints: usesImportMeta,
    define: { 'import.meta.url': '__import_meta_url' },
    banner: { js: '"use strict";\nconst __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  }),
]);
const warnings = results.flatMap((r) => r.warnings);
if (warnings.length > 0) throw new Error(`the CommonJS build has ${warnings.length} warning(s); see above`);

// The types, beside the CommonJS files; declaration maps re-based to reach src/ from one level deeper.
for (const file of converted.filter((f) => f.endsWith('.d.ts') || f.endsWith('.d.ts.map'))) {
  const target = join(cjs, relative(dist, file));
  mkdirSync(dirname(target), { recursive: true });
  if (file.endsWith('.d.ts')) {
    cpSync(file, target);
    continue;
  }
  const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] };
  map.sources = map.sources.map((s) => relative(dirname(target), resolve(dirname(file), s)).replaceAll('\\', '/'));
  writeFileSync(target, JSON.stringify(map));
}
// The dev console's page (HTML, CSS, JavaScript) ships as files beside the module that serves them, in both builds.
for (const out of [dist, cjs]) cpSync(join(root, 'src', 'console', 'page'), join(out, 'console', 'page'), { recursive: true });
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
console.log(`build: dist/ (ES modules, ${files(dist).filter((f) => !f.startsWith(cjs) && f.endsWith('.js')).length} files) and dist/cjs/ (CommonJS, ${js.length} files)`);
