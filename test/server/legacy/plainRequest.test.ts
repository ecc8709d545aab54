import { isJSONRPCRequest, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isPlainRequest } from '../../../src/server/legacy/plainRequest.js';
import { call, tool } from '../_toolCall.js';

describe('isPlainRequest', () => {
  it('takes only requests the SDK’s schema takes, as they are, and leaves every doubtful body to it', () => {
    const cases: Array<[string, unknown, boolean]> = [
      ['a tools/call', tool(), true],
      ['a string id', tool({ id: 'a' }), true],
      ['a negative id', tool({ id: -3 }), true],
      ['no params', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, true],
      ['empty params', tool({ params: {} }), true],
      ['a progress token', tool({ params: { ...call, _meta: { progressToken: 'p' } } }), true],
      ['an empty _meta', tool({ params: { ...call, _meta: {} } }), true],
      ['initialize (the caller decides)', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, true],
      [
        'an envelope claim',
        tool({ params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
        false,
      ],
      ['a trace key in _meta', tool({ params: { ...call, _meta: { traceparent: '00-1-2-01' } } }), false],
      ['a fractional progress token', tool({ params: { ...call, _meta: { progressToken: 1.5 } } }), false],
      ['an array _meta', tool({ params: { ...call, _meta: [] } }), false],
      ['an extra key', tool({ extra: 1 }), false],
      ['a fractional id', tool({ id: 1.5 }), false],
      ['an unsafe integer id', tool({ id: 2 ** 60 }), false],
      ['a null id', tool({ id: null }), false],
      ['no id', { jsonrpc: '2.0', method: 'notifications/initialized' }, false],
      ['jsonrpc 1.0', tool({ jsonrpc: '1.0' }), false],
      ['a numeric method', tool({ method: 5 }), false],
      ['array params', tool({ params: [1] }), false],
      ['null params', tool({ params: null }), false],
      ['a response', { jsonrpc: '2.0', id: 1, result: {} }, false],
      ['a batch', [tool()], false],
      ['a string', 'tools/call', false],
      ['null', null, false],
      ['an object without a prototype', Object.assign(Object.create(null), tool()), false],
    ];
    for (const [what, body, plain] of cases) {
      expect([what, isPlainRequest(body)]).toEqual([what, plain]);
      // What the hand check takes, the SDK's schema takes too, unchanged.
      if (plain) {
        expect([what, isJSONRPCRequest(body)]).toEqual([what, true]);
        expect([what, parseJSONRPCMessage(body)]).toEqual([what, body]);
      }
    }
  });
});
