// `npm run build` (and `prepack`): dist/ holds the ES modules and their types (tsc), dist/cjs/ the same
// modules as CommonJS with their own types, for `require('mcp-fusion')`. What is packed stays small (the pack
// test checks at most 1.5 MB unpacked):
// - ESM: `tsc -p tsconfig.build.json`, one file per source file (so lazy imports stay lazy), comments and
//   whitespace dropped from the JavaScript (names kept; the TSDoc is in the .d.ts files); no source maps,
//   since src/ is not shipped.
// - Types: only the .d.ts files the three entries reach; `@see docs/…` points at the repository's docs.
// - CommonJS: esbuild bundles the three entries into one dist/cjs/_bundle.js (so `mcp-fusion`,
//   `mcp-fusion/redis` and `mcp-fusion/testing` share one copy of every class); dist/cjs/<entry>.js re-exports
//   its part. Packages stay external and dynamic `import()` of optional peers stays `import()`, so they stay
//   lazy and ESM-only peers load too; the bundle's whitespace is minified (names and syntax kept). `import.meta.url` becomes the bundle's own URL. dist/cjs/package.json
//   says `"type": "commonjs"`, so the .d.ts files there (the same types, without TSDoc) describe CommonJS
//   modules. The CLI (bin/) runs
//   the ESM build only.
// - The dev console's page files (HTML, CSS, JavaScript) are copied into dist/console/page/ (the CommonJS
//   bundle finds them there, one folder over).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, transform } from 'esbuild';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const cjs = join(dist, 'cjs');
const entries = ['index', 'redis/index', 'testing/index'];
const docs = 'https://github.com/mcp-fusion/mcp-fusion/blob/main/docs/';

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

rmSync(dist, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
  { stdio: 'inherit', cwd: root },
);

const esm = files(dist);
for (const file of esm.filter((f) => f.endsWith('.js'))) {
  const code = readFileSync(file, 'utf8');
  writeFileSync(file, (await transform(code, { loader: 'js', legalComments: 'inline', minifyWhitespace: true })).code);
}

const program = ts.createProgram(
  entries.map((e) => join(dist, `${e}.d.ts`)),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] },
);
const reached = new Set(
  program
    .getSourceFiles()
    .map((f) => resolve(f.fileName))
    .filter((f) => f.startsWith(dist + sep)),
);
const types = esm.filter((f) => f.endsWith('.d.ts') && reached.has(f));
for (const file of esm.filter((f) => f.endsWith('.d.ts') && !reached.has(f))) rmSync(file);
for (const file of types) writeFileSync(file, readFileSync(file, 'utf8').replace(/(@see |\()docs\//g, `$1${docs}`));

const result = await build({
  stdin: {
    contents: entries.map((e, i) => `export * as entry${i} from './${e}.js';`).join('\n'),
    resolveDir: dist,
    sourcefile: 'entries.js',
    loader: 'js',
  },
  outfile: join(cjs, '_bundle.js'),
  bundle: true,
  packages: 'external',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Whitespace only (names and syntax stay as written): the package stays under 1.5 MB unpacked.
  minifyWhitespace: true,
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: '"use strict";\nconst __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});
if (result.warnings.length > 0)
  throw new Error(`the CommonJS build has ${result.warnings.length} warning(s); see above`);
entries.forEach((entry, i) => {
  const file = join(cjs, `${entry}.js`);
  mkdirSync(dirname(file), { recursive: true });
  const bundle = relative(dirname(file), join(cjs, '_bundle.js')).replaceAll('\\', '/');
  writeFileSync(
    file,
    `"use strict";\nmodule.exports = require("${bundle.startsWith('.') ? bundle : `./${bundle}`}").entry${i};\n`,
  );
});
// The CommonJS declarations are the same types without their TSDoc (the ES module ones carry it): the size budget.
const printer = ts.createPrinter({ removeComments: true });
for (const file of types) {
  const target = join(cjs, relative(dist, file));
  mkdirSync(dirname(target), { recursive: true });
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  writeFileSync(target, printer.printFile(source));
}
// The dev console's page (HTML, CSS, JavaScript) ships as files beside the module that serves them, in both builds.
cpSync(join(root, 'src', 'console', 'page'), join(dist, 'console', 'page'), { recursive: true });
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
console.log(
  `build: dist/ (ES modules, ${esm.filter((f) => f.endsWith('.js')).length} files; ${types.length} declaration files) and dist/cjs/ (one CommonJS bundle)`,
);
