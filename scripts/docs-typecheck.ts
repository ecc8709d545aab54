// `npm run docs:check`: type-checks every ```ts block of README.md and docs/*.md against the package.
// Rules (docs/contributing.md): each block sees the page's earlier blocks and may shadow their names;
// names of "your app" come from scripts/docs-typecheck/app.d.ts; a block after `<!-- no-check -->` is skipped.
// Blocks after `<!-- run: <file> -->` form a program (test/package/pack.test.ts runs it against the packed
// package): they are written as real files and type-checked on their own, without app.d.ts's names.
// Every other block is also type-checked alone, as the module a reader gets by pasting it: it must import or
// define all it uses, unless its first line says `// fragment: needs <names>` (exactly the names it lacks).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { docProgram, type ProgramFile } from './docs-typecheck/docPrograms.js';
import { extractBlocks } from './docs-typecheck/extractBlocks.js';
import { fragmentMarker, NOT_YET_STANDALONE } from './docs-typecheck/fragments.js';
import { ownDiagnostics } from './docs-typecheck/ownDiagnostics.js';
import { pageModule } from './docs-typecheck/pageModule.js';
import { sharedHost } from './docs-typecheck/sharedHost.js';
import { checkStandalone, type StandaloneBlock } from './docs-typecheck/standalone.js';

const root = resolve(import.meta.dirname, '..');
// Inside the repository, so that `mcp-fusion` resolves to this package's sources (tsconfig.json's `paths`).
// One directory per run: node_modules may be shared by several checkouts (worktrees) checking at once.
const out = join(root, 'node_modules', '.cache', `docs-typecheck-${process.pid}`);
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const generated = new Map<string, { page: string; pageLine: (line: number) => number }>();
const programFiles = new Map<string, { page: string; pageLine: ProgramFile['pageLine'] }>();
// Each block alone, as pasted into a file of its own.
const standalone = new Map<string, StandaloneBlock>();
let blockCount = 0;
for (const page of pages) {
  const markdown = readFileSync(join(root, page), 'utf8');
  for (const file of docProgram(page, markdown).files) {
    const path = join(out, 'programs', page.replace(/[/.]/g, '_'), file.name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.source);
    programFiles.set(path, { page, pageLine: file.pageLine });
  }
  const blocks = extractBlocks(markdown);
  if (blocks.length === 0) continue;
  blockCount += blocks.length;
  if (!NOT_YET_STANDALONE.has(page))
    for (const block of blocks) {
      const path = join(out, 'standalone', page.replace(/[/.]/g, '_'), `line-${block.line}.ts`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${block.code}\n`);
      standalone.set(path, { page, block });
    }
  const { source, pageLine } = pageModule(blocks);
  const file = join(out, `${page.replace(/[/.]/g, '_')}.ts`);
  writeFileSync(file, source);
  generated.set(file, { page, pageLine });
}

const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
// The three programs below share the package's parsed sources and declarations (the generated files apart).
const parsed = new Map<string, ts.SourceFile>();
const host = (opts: ts.CompilerOptions): ts.CompilerHost =>
  sharedHost(opts, parsed, (fileName) => resolve(fileName).startsWith(`${out}/`));
const pageOptions = { ...options, noEmit: true, noUnusedLocals: false };
const appTypes = join(root, 'scripts', 'docs-typecheck', 'app.d.ts');
const program = ts.createProgram([...generated.keys(), appTypes], pageOptions, host(pageOptions));
const own = new Set([...generated.keys(), appTypes]);
// The documented programs, alone: what they use they must import or define.
const programs = ts.createProgram([...programFiles.keys()], pageOptions, host(pageOptions));
for (const [file, origin] of programFiles) generated.set(file, origin);
// The blocks alone, each as a reader pastes it.
const { diagnostics: aloneDiagnostics, fragmentErrors } = checkStandalone(standalone, options, host);
for (const [file, { page, block }] of standalone)
  generated.set(file, { page, pageLine: (line) => block.line + line - 1 });
// Errors inside the package itself are the type check's business (and not looked for): only the docs' count.
const diagnostics = [
  ...ownDiagnostics(program, (file) => own.has(file)),
  ...ownDiagnostics(programs, (file) => programFiles.has(file)),
  ...aloneDiagnostics,
];

for (const d of diagnostics) {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (d.file === undefined || d.start === undefined) {
    console.error(`error TS${d.code}: ${message}`);
    continue;
  }
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  const origin = generated.get(resolve(d.file.fileName));
  const where =
    origin === undefined
      ? `${relative(root, d.file.fileName)}:${line + 1}`
      : `${origin.page}:${origin.pageLine(line + 1)}`;
  console.error(`${where}:${character + 1} - error TS${d.code}: ${message}`);
}
for (const error of fragmentErrors) console.error(error);
const errors = diagnostics.length + fragmentErrors.length;
if (errors > 0) {
  console.error(
    `\n${errors} error${errors === 1 ? '' : 's'} in the docs' code blocks (generated modules: ${relative(root, out)}).`,
  );
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
const fragments = [...standalone.values()].filter(({ block }) => fragmentMarker(block.code) !== undefined).length;
console.log(
  `docs: ${blockCount} ts blocks in ${generated.size - programFiles.size - standalone.size} pages and ${programFiles.size} program files type-check; ` +
    `${standalone.size - fragments} blocks stand alone, ${fragments} say they are fragments` +
    (NOT_YET_STANDALONE.size > 0 ? ` (not yet held to it: ${[...NOT_YET_STANDALONE].join(', ')})` : ''),
);
