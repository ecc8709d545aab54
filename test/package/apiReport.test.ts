// etc/mcp-fusion.api.md lists every export of each public entry point (package.json `exports`) with its kind
// and signature, so that every change to the public surface shows in review. It must match the source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSurface, renderReport, ROOT } from '../../scripts/api-report/surface.js';

const committed = readFileSync(join(ROOT, 'etc', 'mcp-fusion.api.md'), 'utf8');
const surface = readSurface(ROOT);

describe('the API report', () => {
  it('is up to date with the exports of every entry point (else: npm run api:report, and review the diff)', () => {
    expect(renderReport(surface), 'the public surface changed: run `npm run api:report` and commit the report').toBe(
      committed,
    );
  });

  it('covers every entry point of package.json, and counts the root’s values and types at the top', () => {
    expect(surface.map((e) => e.subpath)).toEqual([
      'mcp-fusion',
      'mcp-fusion/redis',
      'mcp-fusion/testing',
      'mcp-fusion/advanced',
    ]);
    const root = surface[0]!;
    const values = root.exports.filter((x) => x.kind === 'value').length;
    expect(committed).toContain(
      `**${root.exports.length} exports: ${values} values, ${root.exports.length - values} types.**`,
    );
    // A runtime export is a value, an erased one a type.
    const kinds = new Map(root.exports.map((x) => [x.name, x.kind]));
    expect(kinds.get('initFusion')).toBe('value');
    expect(kinds.get('createFusionApp')).toBe('value');
    expect(kinds.get('FusionApp')).toBe('type');
  });
});
