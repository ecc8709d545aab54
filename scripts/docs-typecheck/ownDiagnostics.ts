import { resolve } from 'node:path';
import ts from 'typescript';

/**
 * What `ts.getPreEmitDiagnostics(program)` reports, filtered to `own` files (and those with no file), without
 * checking the other files: the docs' programs import the package's sources (tsconfig.json's `paths`), and
 * `npm test`'s type check has checked those already. Checking only the docs' files (their declaration
 * diagnostics too: `declaration` is on) leaves the checker to resolve from the sources just the types the
 * docs use, instead of checking and declaration-emitting every source file in each of the docs' programs.
 */
export function ownDiagnostics(program: ts.Program, own: (file: string) => boolean): ts.Diagnostic[] {
  const mine = (d: ts.Diagnostic): boolean => d.file === undefined || own(resolve(d.file.fileName));
  const files = program.getSourceFiles().filter((sf) => own(resolve(sf.fileName)));
  const { declaration, composite } = program.getCompilerOptions();
  const declarations = declaration === true || composite === true;
  return ts
    .sortAndDeduplicateDiagnostics([
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...files.flatMap((sf) => program.getSyntacticDiagnostics(sf)),
      ...program.getGlobalDiagnostics(),
      ...files.flatMap((sf) => program.getSemanticDiagnostics(sf)),
      ...(declarations ? files.flatMap((sf) => program.getDeclarationDiagnostics(sf)) : []),
    ])
    .filter(mine);
}
