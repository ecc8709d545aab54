import { isAbsolute, relative } from 'node:path';

/** `file` relative to `cwd` when it lies inside it (`.` for `cwd` itself), else the absolute path. */
export function displayPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
