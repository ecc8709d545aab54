// The public surface of mcp-fusion, read by the TypeScript compiler from the entry points that package.json
// exports: every export of each, with its kind and a one-line signature.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** One exported name of an entry point. */
export interface ApiExport {
  readonly name: string;
  /** `value` (exists at run time: a function, class, constant) or `type` (erased: an interface or alias). */
  readonly kind: 'value' | 'type';
  /** What it is: function, class, const, enum, namespace, interface or type. */
  readonly what: string;
  readonly signature: string;
}

/** An entry point: its package subpath and its exports, sorted by name. */
export interface ApiEntry {
  readonly subpath: string;
  readonly source: string;
  readonly exports: readonly ApiExport[];
}

const MAX_SIGNATURE = 240;

/** The subpaths of package.json `exports` with code (not `./package.json`), each with its source file under src/. */
export function entryPoints(root: string): Array<{ subpath: string; source: string }> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object' && target !== null)
    .map(([subpath, target]) => {
      const built = (target as { import: { default: string } }).import.default; // ./dist/redis/index.js
      const source = built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      return { subpath: subpath === '.' ? 'mcp-fusion' : `mcp-fusion/${subpath.slice(2)}`, source };
    });
}

/** Reads every entry point's exports with the project's compiler options. */
export function readSurface(root: string): ApiEntry[] {
  const entries = entryPoints(root);
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram(
    entries.map((e) => resolve(root, e.source)),
    { ...parsed.options, noEmit: true },
  );
  const checker = program.getTypeChecker();
  return entries.map(({ subpath, source }) => {
    const file = program.getSourceFile(resolve(root, source));
    if (file === undefined) throw new Error(`api-report: ${source} (package.json exports ${subpath}) was not found`);
    const module = checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`api-report: ${source} is not a module`);
    const exports = checker
      .getExportsOfModule(module)
      .map((symbol) => describe(checker, symbol))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { subpath, source, exports };
  });
}

function describe(checker: ts.TypeChecker, exported: ts.Symbol): ApiExport {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const flags = symbol.flags;
  // `export type { X }` of a class or constant: only its type is exported.
  const typeOnly = exported.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d)) === true;
  const value = !typeOnly && (flags & ts.SymbolFlags.Value) !== 0;
  const what = whatOf(flags);
  return {
    name: exported.name,
    kind: value ? 'value' : 'type',
    what,
    signature: oneLine(signatureOf(checker, symbol, what)),
  };
}

function whatOf(flags: ts.SymbolFlags): string {
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  if (flags & ts.SymbolFlags.Variable) return 'const';
  if (flags & ts.SymbolFlags.ValueModule) return 'namespace';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  return 'other';
}

function signatureOf(checker: ts.TypeChecker, symbol: ts.Symbol, what: string): string {
  const declaration = symbol.declarations?.[0];
  if (declaration === undefined) return '';
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  switch (what) {
    case 'function': {
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      return type
        .getCallSignatures()
        .map((s) => checker.signatureToString(s, undefined, flags))
        .join(' | ');
    }
    case 'class': {
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const ctors = type.getConstructSignatures().map((s) => `new ${checker.signatureToString(s, undefined, flags)}`);
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      const members = instance
        .getProperties()
        .filter((p) => !p.name.startsWith('#') && !p.name.startsWith('__'))
        .map((p) => p.name);
      return `${ctors.join(' | ') || 'new ()'}; members: ${members.join(', ') || '(none)'}`;
    }
    case 'interface': {
      const members = checker
        .getDeclaredTypeOfSymbol(symbol)
        .getProperties()
        // A symbol-keyed member's internal name carries a per-program id (`__@asyncDispose@1734`); name it stably.
        .map((p) => p.name.replace(/^__@(\w+)@\d+$/, '[Symbol.$1]'));
      return `{ ${members.join(', ')} }`;
    }
    case 'type':
      // The alias as written (its name alone says nothing); one line.
      return ts.isTypeAliasDeclaration(declaration)
        ? declaration.type.getText()
        : checker.typeToString(checker.getDeclaredTypeOfSymbol(symbol), undefined, flags);
    default:
      return checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration), undefined, flags);
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_SIGNATURE ? flat : `${flat.slice(0, MAX_SIGNATURE - 1)}…`;
}

/** The report's Markdown: counts first, then each entry point's exports as a table. */
export function renderReport(entries: readonly ApiEntry[]): string {
  const lines: string[] = [];
  const count = (e: ApiEntry, kind: 'value' | 'type') => e.exports.filter((x) => x.kind === kind).length;
  const root = entries.find((e) => e.subpath === 'mcp-fusion');
  lines.push('# mcp-fusion API report', '');
  lines.push(
    '<!-- Generated by `npm run api:report` (scripts/api-report.ts); test/package/apiReport.test.ts checks it. -->',
  );
  lines.push('');
  if (root !== undefined)
    lines.push(
      `Root (\`mcp-fusion\`): **${root.exports.length} exports: ${count(root, 'value')} values, ${count(root, 'type')} types.**`,
      '',
    );
  lines.push('| entry point | source | exports | values | types |', '|---|---|---:|---:|---:|');
  for (const e of entries)
    lines.push(
      `| \`${e.subpath}\` | \`${e.source}\` | ${e.exports.length} | ${count(e, 'value')} | ${count(e, 'type')} |`,
    );
  for (const e of entries) {
    lines.push('', `## \`${e.subpath}\``, '', '| export | kind | what | signature |', '|---|---|---|---|');
    for (const x of e.exports) lines.push(`| \`${x.name}\` | ${x.kind} | ${x.what} | ${cell(x.signature)} |`);
  }
  return `${lines.join('\n')}\n`;
}

function cell(text: string): string {
  return text === '' ? '' : `\`${text.replace(/\|/g, '\\|').replace(/`/g, "'")}\``;
}

/** The repository root (this file lives in scripts/api-report/). */
export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
