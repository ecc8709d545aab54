import { describe, expect, it } from 'vitest';
import { fixedJson, stringifyMessage } from '../../src/_internal/fixedJson.js';

const tools = () => [
  { name: 'a', inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, description: 'A' },
  { name: 'b', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
];

describe('stringifyMessage', () => {
  it('writes the bytes JSON.stringify writes, with a fixed list inside the result', () => {
    const list = fixedJson(tools());
    const messages = [
      { result: { tools: list }, jsonrpc: '2.0', id: 7 },
      {
        jsonrpc: '2.0',
        id: 'x"y',
        result: { tools: list, nextCursor: undefined, ttlMs: 60_000, cacheScope: 'public' },
      },
      {
        result: { _meta: { k: [1, 'two'] }, tools: list, resultType: 'complete', f: () => 1 },
        id: null,
        jsonrpc: '2.0',
      },
      { result: { tools: list, when: new Date(0) }, jsonrpc: '2.0', id: 1, skipped: undefined },
    ];
    for (const message of messages) expect(stringifyMessage(message)).toBe(JSON.stringify(message));
  });

  it('serializes a fixed value once: a change to it after the first answer is refused, a new value is a new text', () => {
    const list = fixedJson(tools());
    const first = stringifyMessage({ result: { tools: list }, jsonrpc: '2.0', id: 1 });
    expect(() => (list as unknown[]).push({ name: 'c' })).toThrow(TypeError);
    const other = fixedJson(tools().slice(1));
    const second = stringifyMessage({ result: { tools: other }, jsonrpc: '2.0', id: 1 });
    expect(second).toBe(JSON.stringify({ result: { tools: other }, jsonrpc: '2.0', id: 1 }));
    expect(second).not.toBe(first);
  });

  it('leaves messages without a fixed value to JSON.stringify, toJSON and prototypes included', () => {
    class Wrapped {
      toJSON() {
        return { wrapped: true };
      }
    }
    const list = fixedJson(tools());
    const messages: object[] = [
      { result: { content: [{ type: 'text', text: 'x' }] }, jsonrpc: '2.0', id: 2 },
      { error: { code: -32602, message: 'bad' }, jsonrpc: '2.0', id: 3 },
      { result: Object.assign(new Wrapped(), { tools: list }), jsonrpc: '2.0', id: 4 },
      { result: [list], jsonrpc: '2.0', id: 5 },
    ];
    for (const message of messages) expect(stringifyMessage(message)).toBe(JSON.stringify(message));
  });
});
