import ts from 'typescript';
import type { CodeBlock } from './extractBlocks.js';

/** A page compiled as one module, and the page line of each generated line. */
export interface PageModule {
  readonly source: string;
  /** 1-based generated line → 1-based page line. */
  readonly pageLine: (generatedLine: number) => number;
}

interface Binding {
  readonly local: string;
  readonly text: string;
  readonly line: number;
}

/**
 * Pure: a page's blocks as one module in which every block sees the blocks before it, the way a reader
 * does. Each block is nested one scope deeper than the previous one, so a later block may declare a name
 * again (it shadows the earlier one). Imports and `declare` statements are hoisted to the top, each
 * imported name once (one line per name, mapped to where the page imports it).
 */
export function pageModule(blocks: readonly CodeBlock[]): PageModule {
  const head: Array<{ text: string; line: number }> = [];
  const body: Array<{ text: string; line: number }> = [];
  const imported = new Map<string, string>();
  for (const block of blocks) {
    const file = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const lineOf = (pos: number): number => block.line + file.getLineAndCharacterOfPosition(pos).line;
    const hoisted: Array<[number, number]> = [];
    const blanks: Array<[number, number]> = [];
    for (const statement of file.statements) {
      if (ts.isImportDeclaration(statement)) {
        hoisted.push([statement.getStart(file), statement.end]);
        for (const b of bindings(statement, file, lineOf)) {
          const key = `${b.local}`;
          if (imported.get(key) === b.text) continue;
          imported.set(key, b.text);
          head.push({ text: b.text, line: b.line });
        }
      } else if (ts.getModifiers(statement as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) {
        hoisted.push([statement.getStart(file), statement.end]);
        for (const [i, text] of statement.getText(file).split('\n').entries())
          head.push({ text, line: lineOf(statement.getStart(file)) + i });
      } else {
        const exported = ts
          .getModifiers(statement as ts.HasModifiers)
          ?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (exported !== undefined) blanks.push([exported.getStart(file), exported.end]);
      }
    }
    let code = block.code;
    // Blank out hoisted statements and `export` keywords with spaces, so lines and columns stay put.
    for (const [start, end] of [...hoisted, ...blanks].sort((a, b) => b[0] - a[0]))
      code = code.slice(0, start) + code.slice(start, end).replace(/[^\n]/g, ' ') + code.slice(end);
    body.push({ text: '{', line: block.line });
    code.split('\n').forEach((text, i) => body.push({ text, line: block.line + i }));
  }
  const last = blocks.at(-1)?.line ?? 1;
  const lines = [
    ...head,
    ...body,
    ...blocks.map(() => ({ text: '}', line: last })),
    { text: 'export {};', line: last },
  ];
  return { source: `${lines.map((l) => l.text).join('\n')}\n`, pageLine: (n) => lines[n - 1]?.line ?? last };
}

/** Each name an import declaration binds, as a one-name import statement. */
function bindings(node: ts.ImportDeclaration, file: ts.SourceFile, lineOf: (pos: number) => number): Binding[] {
  const from = node.moduleSpecifier.getText(file);
  const clause = node.importClause;
  const line = lineOf(node.getStart(file));
  if (clause === undefined) return [{ local: `side-effect ${from}`, text: `import ${from};`, line }];
  const typeOnly = clause.isTypeOnly ? 'type ' : '';
  const out: Binding[] = [];
  if (clause.name !== undefined)
    out.push({ local: clause.name.text, text: `import ${typeOnly}${clause.name.text} from ${from};`, line });
  const named = clause.namedBindings;
  if (named !== undefined && ts.isNamespaceImport(named))
    out.push({ local: named.name.text, text: `import ${typeOnly}* as ${named.name.text} from ${from};`, line });
  if (named !== undefined && ts.isNamedImports(named)) {
    for (const element of named.elements) {
      const type = typeOnly !== '' || element.isTypeOnly ? 'type ' : '';
      const name =
        element.propertyName === undefined
          ? element.name.text
          : `${element.propertyName.getText(file)} as ${element.name.text}`;
      out.push({
        local: element.name.text,
        text: `import { ${type}${name} } from ${from};`,
        line: lineOf(element.getStart(file)),
      });
    }
  }
  return out;
}
