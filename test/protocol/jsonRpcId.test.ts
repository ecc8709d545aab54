import { describe, expect, it } from 'vitest';
import { jsonRpcIdOf } from '../../src/protocol/jsonRpcId.js';
import { protoKeyOfBody } from '../../src/protocol/protoKeys.js';

describe('jsonRpcIdOf', () => {
  it('echoes a string or number id, and null for anything else', () => {
    expect([jsonRpcIdOf({ id: 7 }), jsonRpcIdOf({ id: 'a' }), jsonRpcIdOf({ id: 0 })]).toEqual([7, 'a', 0]);
    for (const body of [
      { id: { x: 1 } },
      { id: null },
      { method: 'notifications/initialized' },
      [{ id: 1 }],
      null,
      undefined,
      'text',
    ])
      expect(jsonRpcIdOf(body)).toBeNull();
  });
});

describe('protoKeyOfBody', () => {
  it('names the tool, the path and the id of the first call with a __proto__ argument, in a batch too', () => {
    const call = JSON.parse(
      '{"jsonrpc":"2.0","id":"c2","method":"tools/call","params":{"name":"echo","arguments":{"a":{"__proto__":1}}}}',
    );
    const found = protoKeyOfBody([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, call]);
    expect(found).toEqual({
      path: 'a.__proto__',
      id: 'c2',
      name: 'echo',
      message:
        'Invalid arguments for tool "echo": a.__proto__ is not an accepted field (unknown field). Remove it and call the tool again.',
    });
    expect(
      protoKeyOfBody({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } }),
    ).toBeUndefined();
  });
});
