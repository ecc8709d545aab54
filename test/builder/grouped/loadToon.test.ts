import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

describe('loadToonEncode', () => {
  it('loads encode from @toon-format/toon synchronously', async () => {
    const { loadToonEncode } = await import('../../../src/builder/grouped/loadToon.js');
    expect(loadToonEncode('notes')([{ a: 1 }], { delimiter: '|' })).toBe('[1|]{a}:\n  1');
  });

  it('says what to install or inject when the package cannot be loaded', async () => {
    vi.spyOn(process as { getBuiltinModule: (id: string) => unknown }, 'getBuiltinModule').mockReturnValue(undefined);
    const { loadToonEncode } = await import('../../../src/builder/grouped/loadToon.js');
    expect(() => loadToonEncode('notes')).toThrow(
      expect.objectContaining({ code: 'PEER_MISSING', data: { tool: 'notes', peer: '@toon-format/toon' } }),
    );
    expect(() => loadToonEncode('notes')).toThrowErrorMatchingInlineSnapshot(
      `[MissingPeerError: Tool "notes" uses .toonDescription(), which needs the optional peer "@toon-format/toon" (this runtime cannot load packages synchronously). Install it (npm install @toon-format/toon), or pass its encoder: .toonDescription({ encode }) with encode imported from "@toon-format/toon" (needed on Node < 20.19 and in bundles).]`,
    );
  });
});
