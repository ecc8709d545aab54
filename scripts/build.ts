// `npm run build` (and `prepack`): dist/ holds the ES modules and their types (tsc), dist/cjs/ the same
// modules as CommonJS with their own types, for `require('mcp-fusion')`. Nothing is minified: a thrown error
// shows its message and frames that name our functions, on lines a reader can follow.
// - ESM: `tsc -p tsconfig.build.json` (TypeScript 7, the native compiler: devDependency typescript-native; the
//   .d.ts pass below uses TypeScript 5.9's API), one file per source file (so lazy imports stay lazy), as tsc
//   writes it (comments kept), each with a source map that carries its TypeScript source (`inlineSources`,
//   since src/ is not shipped): with source maps on (`node --enable-source-maps`; the CLI in bin/ turns them on) a
//   frame reads `startServer (…/src/server/app/startServer.ts:86:11)`.
// - Types: only the .d.ts files the four entries reach; `@see docs/…` points at the repository's docs.
// - CommonJS: esbuild bundles the four entries into one dist/cjs/_bundle.js (so `mcp-fusion`, `mcp-fusion/advanced`,
//   `mcp-fusion/redis` and `mcp-fusion/testing` share one copy of every class); dist/cjs/<entry>.js re-exports
//   its part. Packages stay external and dynamic `import()` of optional peers stays `import()`, so they stay
//   lazy and ESM-only peers load too. `import.meta.url` becomes the bundle's own URL. Its source map goes
//   through the ES modules' maps to src/…ts, without the sources a second time (`sourcesContent: false`).
//   dist/cjs/package.json says `"type": "commonjs"`, so the .d.ts files there (the same types, without TSDoc)
//   describe CommonJS modules. The CLI (bin/) runs the ESM build only.
// - The dev console's page files (HTML, CSS, JavaScript) are copied into dist/console/page/ (the CommonJS
//   bundle finds them there, one folder over).
// Size (MB = 1024² bytes, as the pack test counts; its bound is 6 MB unpacked since the ledger, skills and console bounds grew it to 5.38 MB), measured at this change:
// 4.41 MB unpacked, 1.19 MB packed (minified without maps it was 1.45 MB and 0.43 MB): the ESM JavaScript
// 0.94 MB, its maps 1.99 MB (1.17 MB of it the sources), the bundle 0.62 MB and its map 0.37 MB, the
// declarations 0.46 MB.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const cjs = join(dist, 'cjs');
const entries = ['index', 'redis/index', 'testing/index', 'advanced/index'];
const docs = 'https://github.com/mcp-fusion/mcp-fusion/blob/main/docs/';

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

rmSync(dist, { recursive: true, force: true });
// MCP_FUSION_BUILD_NO_CHECK=1 emits without type-checking (tsc's `--noCheck`: the same files, byte for byte,
// in a fifth of the CPU): for the pack test, whose `npm test` has type-checked the same sources already.
const noCheck = process.env.MCP_FUSION_BUILD_NO_CHECK === '1' ? ['--noCheck'] : [];
execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript-native', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json'), ...noCheck],
  { stdio: 'inherit', cwd: root },
);

const esm = files(dist);

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
  // Linked map: esbuild follows each ES module's own map, so the bundle's frames name src/….ts too.
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'inline',
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: '"use strict";\nconst __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});
if (result.warnings.length > 0)
  throw new Error(`the CommonJS build has ${result.warnings.length} warning(s); see above`);
// A line marked `node-do-not-add-exception-line` (startServer's ServerStartError) is one Node does not print
// above an uncaught error's message. esbuild keeps the mark (a `//!` comment) but on the line below: put it
// back at the end of the line it marks, leaving an empty line, so the source map's lines stay true.
const bundleFile = join(cjs, '_bundle.js');
writeFileSync(
  bundleFile,
  readFileSync(bundleFile, 'utf8').replace(/\n[ \t]*(\/\/! node-do-not-add-exception-line[^\n]*)\n/g, ' $1\n\n'),
);
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
