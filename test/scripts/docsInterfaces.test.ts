// Reference pages print interfaces of the public API for reading; each printed interface must name the same
// members as the one the package exports (an option a page tells users to set must appear where it prints
// the interface, and nothing printed may be gone from the code).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../../scripts/docs-typecheck/fencedBlocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entries = ['src/index.ts', 'src/redis/index.ts', 'src/testing/index.ts'].map((f) => join(root, f));

/** Member names of each interface the package's entries export, by name. */
function exportedInterfaces(): Map<string, string[]> {
  const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.find(ts.isInterfaceDeclaration);
      if (declaration !== undefined) out.set(exported.name, membersOf(declaration));
    }
  }
  return out;
}

function membersOf(node: ts.InterfaceDeclaration): string[] {
  return node.members
    .map((m) => (m.name !== undefined && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : ''))
    .filter((name) => name !== '')
    .sort();
}

/** Every interface printed in a ts block of the docs: page, name, member names. */
function printedInterfaces(): Array<{ page: string; name: string; members: string[] }> {
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return pages.flatMap((page) =>
    fencedBlocks(readFileSync(join(root, page), 'utf8'))
      .filter((b) => /^```(ts|typescript)\s*$/.test(b.fence))
      .flatMap((b) => {
        const file = ts.createSourceFile('block.ts', b.code, ts.ScriptTarget.Latest, true);
        return file.statements.filter(ts.isInterfaceDeclaration).map((node) => ({
          page: `${page}:${b.line + file.getLineAndCharacterOfPosition(node.getStart(file)).line}`,
          name: node.name.text,
          members: membersOf(node),
        }));
      }),
  );
}

describe('interfaces printed in the docs', () => {
  const exported = exportedInterfaces();
  const printed = printedInterfaces().filter((p) => exported.has(p.name));

  it('are found (the pages print several of the public API)', () => {
    expect(printed.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'FsmConfig',
        'FsmStateConfig',
        'FsmSnapshot',
        'TransitionEvent',
        'StateSyncConfig',
        'SyncPolicy',
      ]),
    );
  });

  it('name the same members as the exported interface', () => {
    const differ = printed
      .map((p) => ({ ...p, code: exported.get(p.name)! }))
      .filter((p) => p.members.join() !== p.code.join())
      .map((p) => ({
        where: `${p.page} ${p.name}`,
        missing: p.code.filter((m) => !p.members.includes(m)),
        notInCode: p.members.filter((m) => !p.code.includes(m)),
      }));
    expect(differ).toEqual([]);
  });
});
