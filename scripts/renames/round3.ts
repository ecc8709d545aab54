// Round three of issue #43, one name per concept: `npx tsx scripts/renames/round3.ts [--dry-run]`.
//
// 1. Files follow their classes: scripts/applyMoves.ts with scripts/renames/round3.moves.json (git mv, and every
//    import of a moved file rewritten).
// 2. Names that are unique words (`ScopeGate`, `AuthGate`, `GateSessions`, the `ToolExtra` alias, …) are replaced
//    as whole words in code, comments and docs (WORDS below).
// 3. Names that are common words are renamed by the TypeScript compiler, by what they refer to: every `scope`
//    (and `scopeOf`, `scopeFor`, …) whose type is the request context (`RequestContext`) becomes `rctx`
//    (`rctxOf`, …), so that "scope" is left to OAuth; the middleware constant `protoKeys` becomes
//    `refuseProtoKeys`; the class behind `StateMachineGate` is `StateMachineGateImpl`, not `Gate`.
// 4. Import and export lists that now name one thing twice are merged; Prettier formats the files it changed, and
//    the API report (etc/mcp-fusion.api.md) is written again.
//
// Re-runnable and idempotent: a name already renamed matches no rule, a moved file is skipped, so a run on a tree
// that has it all changes nothing, and a run after merging other branches renames what they brought.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const dryRun = process.argv.includes('--dry-run');
/** The new name of the request context, wherever it was `scope` ("scopes" are OAuth's). */
const RCTX = 'rctx';

/** Whole-word replacements, in order (code, comments and docs). Each new name matches no old one. */
const WORDS: Array<[RegExp, string]> = [
  // `ToolExtra` was another name of `HandlerExtra`: the alias goes, every use names `HandlerExtra`.
  [/\n\/\*\*[^\n]*\*\/\nexport type ToolExtra = HandlerExtra;\n/g, '\n'],
  [/; `ToolExtra` is its name for tools/g, ''],
  [/\bToolExtra\b/g, 'HandlerExtra'],
  // The workflow's per-session state and its run options: named for the workflow, not "gate".
  [/\bGateSessionsOptions\b/g, 'WorkflowSessionsOptions'],
  [/\bGateSessions\b/g, 'WorkflowSessions'],
  [/\bgateSessions\b/g, 'workflowSessions'],
  [/\bGateOutcome\b/g, 'WorkflowOutcome'],
  [/\bGateRunOptions\b/g, 'WorkflowRunOptions'],
  // The options of StateMachineGate are named after it.
  [/\bGateOptions\b/g, 'StateMachineGateOptions'],
  [/\bisGate\b/g, 'isStateMachineGate'],
  [/\brequireGate\b/g, 'requireStateMachineGate'],
  // OAuth: per-item scopes filter lists and calls; the HTTP stage verifies bearer tokens.
  [/\bScopeGate\b/g, 'ScopeFilter'],
  [/\bscopeGate\b/g, 'scopeFilter'],
  [/\bAuthGate\b/g, 'BearerAuth'],
  [/\bauthGate\b/g, 'bearerAuth'],
  // The part of an SDK server the request context reads (the file was sdkScope.ts).
  [/\bScopeServer\b/g, 'ContextServer'],
  // Comments that called the request context "scope".
  [/the pipeline's scope shape/g, "the request context's shape"],
  [/, and returns `scope`\./g, ', and returns its request context (`rctx`).'],
  [
    /without it the handlers and scopes are the untraced ones/g,
    'without it the handlers and request contexts are untraced',
  ],
  [/Present on a request scope only/g, 'Present on a request context only'],
  // The front's middleware list in the docs' walk.
  [/→ protoKeys\b/g, '→ refuseProtoKeys'],
];

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'api']);
const TEXT = /\.(?:ts|mts|cts|tsx|js|mjs|cjs|md)$/;

const rel = (abs: string): string => relative(ROOT, abs).split(sep).join('/');

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP_DIRS.has(e.name)) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? walk(path) : TEXT.test(e.name) ? [path] : [];
  });
}

/** The files this round rewrites: code, tests, benchmarks, examples, scripts (not this round's own), docs. */
function textFiles(): string[] {
  const own = join(ROOT, 'scripts', 'renames');
  const history = join(ROOT, 'scripts', 'moves');
  return [
    ...['src', 'test', 'bench', 'examples', 'scripts', 'docs'].flatMap((d) => walk(join(ROOT, d))),
    join(ROOT, 'README.md'),
    join(ROOT, 'vitest.config.ts'),
  ].filter((f) => existsSync(f) && !f.startsWith(own + sep) && !f.startsWith(history + sep));
}

// ---- 1. files ----------------------------------------------------------------------------------------------
function moveFiles(): void {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(ROOT, 'scripts', 'applyMoves.ts'),
      join(import.meta.dirname, 'round3.moves.json'),
      ...(dryRun ? ['--dry-run'] : []),
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

// ---- 2. unique words ---------------------------------------------------------------------------------------
function replaceWords(writes: Map<string, string>): void {
  for (const file of textFiles()) {
    const text = writes.get(file) ?? readFileSync(file, 'utf8');
    let out = text;
    for (const [pattern, replacement] of WORDS) out = out.replace(pattern, replacement);
    if (out !== text) writes.set(file, out);
  }
}

// ---- 3. common words, by what they refer to ----------------------------------------------------------------
interface Edit {
  start: number;
  end: number;
  text: string;
}

function renameByMeaning(writes: Map<string, string>): void {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error('tsconfig.json: cannot read it');
  // The program sees the tree as step 2 left it (in a dry run, the pending writes).
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => writes.get(resolve(f)) ?? readFile(f);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  const checker = program.getTypeChecker();

  /** True when `type` is the request context, holds it (a union, `Pick<RequestContext, …>`) or returns it. */
  const mentionsContext = (type: ts.Type, depth = 0): boolean => {
    if (depth > 3) return false;
    if (/\bRequestContext\b/.test(checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation))) return true;
    if (type.getSymbol()?.getName() === 'RequestContext' || type.aliasSymbol?.getName() === 'RequestContext')
      return true;
    const parts = [
      ...(type.isUnion() ? type.types : []),
      ...(type.aliasTypeArguments ?? []),
      ...type.getCallSignatures().map((s) => s.getReturnType()),
    ];
    return parts.some((t) => mentionsContext(t, depth + 1));
  };
  const decided = new Map<ts.Symbol, string | undefined>();
  const resolveAlias = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);

  /** The new name of a symbol, or undefined when it keeps its name. */
  const newName = (symbol: ts.Symbol | undefined): string | undefined => {
    if (symbol === undefined) return undefined;
    const target = resolveAlias(symbol);
    if (decided.has(target)) return decided.get(target);
    const name = target.getName();
    const decl = target.valueDeclaration ?? target.declarations?.[0];
    let next: string | undefined;
    if (decl !== undefined) {
      const file = rel(decl.getSourceFile().fileName);
      if (name === 'protoKeys' && file.startsWith('src/server/middleware/')) next = 'refuseProtoKeys';
      else if (name === 'Gate' && file === 'src/fsm/StateMachineGate.ts') next = 'StateMachineGateImpl';
      else if (name === 'scope' || /^scope[A-Z0-9]/.test(name)) {
        const type = checker.getTypeOfSymbolAtLocation(target, decl);
        if (mentionsContext(type)) next = RCTX + name.slice('scope'.length);
      }
    }
    decided.set(target, next);
    return next;
  };

  const candidate = (text: string): boolean =>
    text === 'scope' || /^scope[A-Z0-9]/.test(text) || text === 'protoKeys' || text === 'Gate';

  for (const source of program.getSourceFiles()) {
    const file = resolve(source.fileName);
    if (!file.startsWith(ROOT + sep) || file.includes(`${sep}node_modules${sep}`)) continue;
    if (file.startsWith(join(ROOT, 'scripts', 'renames') + sep)) continue;
    const edits: Edit[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && candidate(node.text)) {
        const parent = node.parent;
        if (ts.isShorthandPropertyAssignment(parent) && parent.name === node) {
          // `{ scope }`: the variable and the property it fills, each renamed or not.
          const value = newName(checker.getShorthandAssignmentValueSymbol(parent));
          const literal = parent.parent;
          const contextual = checker.getContextualType(literal)?.getProperty(node.text);
          const property = contextual === undefined ? value : newName(contextual);
          const v = value ?? node.text;
          const p = property ?? node.text;
          if (v !== node.text || p !== node.text)
            edits.push({ start: node.getStart(), end: node.getEnd(), text: v === p ? v : `${p}: ${v}` });
        } else if (ts.isBindingElement(parent) && parent.name === node && parent.propertyName === undefined) {
          // `const { scope } = …`: the property read and the variable made.
          const value = newName(checker.getSymbolAtLocation(node));
          const property = newName(checker.getTypeAtLocation(parent.parent).getProperty(node.text));
          const v = value ?? node.text;
          const p = property ?? node.text;
          if (v !== node.text || p !== node.text)
            edits.push({ start: node.getStart(), end: node.getEnd(), text: v === p ? v : `${p}: ${v}` });
        } else {
          const next = newName(checker.getSymbolAtLocation(node));
          if (next !== undefined) edits.push({ start: node.getStart(), end: node.getEnd(), text: next });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (edits.length === 0) continue;
    let text = source.getFullText();
    const seen = new Set<number>();
    for (const edit of edits.sort((a, b) => b.start - a.start)) {
      if (seen.has(edit.start)) continue;
      seen.add(edit.start);
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    writes.set(file, text);
  }
}

// ---- 4. lists that name one thing twice --------------------------------------------------------------------
const LIST = /\b(import|export)(\s+type)?\s*\{([^{}]*)\}(\s*from\s*['"][^'"]+['"])/g;

function mergeLists(writes: Map<string, string>): void {
  for (const [file, text] of writes) {
    if (file.endsWith('.md')) continue;
    const out = text.replace(LIST, (whole, kind: string, type: string | undefined, body: string, from: string) => {
      const items = body
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      const keyOf = (item: string): string => item.replace(/^type\s+/, '');
      const kept = items.filter((item, i) => items.findIndex((other) => keyOf(other) === keyOf(item)) === i);
      if (kept.length === items.length) return whole;
      return `${kind}${type ?? ''} { ${kept.join(', ')} }${from}`;
    });
    writes.set(file, out);
  }
}

function main(): void {
  moveFiles();
  const writes = new Map<string, string>();
  replaceWords(writes);
  renameByMeaning(writes);
  mergeLists(writes);
  const changed = [...writes].filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
  for (const [file] of changed) process.stdout.write(`rename in ${rel(file)}\n`);
  process.stdout.write(`${changed.length} files changed${dryRun ? ' (dry run: nothing written)' : ''}\n`);
  if (dryRun || changed.length === 0) return;
  for (const [file, text] of changed) writeFileSync(file, text);
  const code = changed.map(([file]) => file).filter((f) => !f.endsWith('.md'));
  if (code.length > 0)
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'oxfmt', 'bin', 'oxfmt'), ...code], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  // The public names changed: the API report follows (etc/mcp-fusion.api.md).
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/api-report.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

main();
