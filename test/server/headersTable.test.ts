// docs/protocol-eras.md lists which modern requests need `Mcp-Name` and which body field it carries; the
// server (the SDK's standard-header check it runs) must refuse exactly those requests without the header.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';

const page = readFileSync(new URL('../../docs/protocol-eras.md', import.meta.url), 'utf8');

/** The page's method table: each method with the `params` field its `Mcp-Name` carries, or none. */
function documentedRows(): Array<{ method: string; field: string | undefined }> {
  const lines = page.split('\n');
  const start = lines.findIndex((l) => /^\| method \| `Mcp-Name` carries \|$/.test(l));
  expect(start, 'the method table of docs/protocol-eras.md').toBeGreaterThan(0);
  const rows: Array<{ method: string; field: string | undefined }> = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [methods = '', carries = ''] = line.split('|').slice(1, 3);
    const field = /`params\.(\w+)`/.exec(carries)?.[1];
    for (const [, method] of methods.matchAll(/`([\w/]+)`/g)) rows.push({ method: method!, field });
  }
  return rows;
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'headers', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const f = initFusion();
const app = createFusionApp(
  f.registry().registerAll(
    f
      .query('a.b')
      .describe('A tool')
      .handle(() => 'ok'),
  ),
);
afterAll(() => app.close());

/** A modern POST of `method` whose params carry every field `Mcp-Name` may mirror, with the given headers. */
async function post(method: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const params = { name: 'a.b', uri: 'fusion://x', taskId: 't1', _meta: ENVELOPE };
  const response = await app.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        host: '127.0.0.1',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }),
    { peer: '127.0.0.1' },
  );
  return { status: response.status, text: await response.text() };
}

describe('the headers table of docs/protocol-eras.md', () => {
  const rows = documentedRows();

  it('names the methods that carry a name, and some that do not', () => {
    expect(rows.filter((r) => r.field !== undefined).map((r) => r.method)).toContain('tasks/get');
    expect(rows.filter((r) => r.field === undefined).length).toBeGreaterThan(3);
  });

  it.each(rows)('$method: Mcp-Name is required exactly when the page says, mirroring its field', async (row) => {
    const answer = await post(row.method, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': row.method });
    const refusal = /required Mcp-Name header is absent/;
    if (row.field === undefined) {
      // Answered past the header check (by the method itself, whatever it makes of these params).
      expect(answer.text).not.toMatch(/-32020|Missing Host/);
      return;
    }
    expect(answer.status, answer.text).toBe(400);
    expect(answer.text).toMatch(refusal);
    expect(answer.text).toContain(`params.${row.field}=`);
    expect(answer.text).toContain('-32020');
  });

  it('every request needs Mcp-Method (and MCP-Protocol-Version selects the era)', async () => {
    const answer = await post('tools/list', { 'mcp-protocol-version': '2026-07-28' });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.text).toMatch(/-32020[\s\S]*required Mcp-Method header is absent/);
  });
});
