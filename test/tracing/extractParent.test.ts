import * as api from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { extractParent } from '../../src/tracing/extractParent.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const parentOf = (meta: unknown) => {
  const ctx = extractParent(api, meta);
  return ctx === undefined ? undefined : api.trace.getSpanContext(ctx);
};

afterEach(() => api.propagation.disable());

describe('extractParent', () => {
  it('reads a W3C traceparent and tracestate from _meta without a registered propagator', () => {
    const parent = parentOf({ traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'rojo=1,congo=2', progressToken: 5 });
    expect(parent).toMatchObject({ traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true });
    expect(parent?.traceState?.get('congo')).toBe('2');
    expect(parentOf({ traceparent: `00-${TRACE}-${SPAN}-00` })?.traceFlags).toBe(0);
  });

  it('uses the registered propagator when there is one (here one that reads its own _meta key)', () => {
    const custom: api.TextMapPropagator = {
      fields: () => ['x-parent'],
      inject: () => {},
      extract: (ctx, carrier, getter) => {
        const [traceId, spanId] = String(getter.get(carrier, 'x-parent') ?? '').split(':');
        return traceId === undefined || spanId === undefined
          ? ctx
          : api.trace.setSpanContext(ctx, { traceId, spanId, traceFlags: 1, isRemote: true });
      },
    };
    api.propagation.setGlobalPropagator(custom);
    expect(parentOf({ 'x-parent': `${TRACE}:${SPAN}` })).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      isRemote: true,
    });
  });

  it('ignores missing, malformed and invalid contexts', () => {
    for (const meta of [
      undefined,
      null,
      'traceparent',
      {},
      { traceparent: 42 },
      { traceparent: 'garbage' },
      { traceparent: `ff-${TRACE}-${SPAN}-01` },
      { traceparent: `00-${'0'.repeat(32)}-${SPAN}-01` },
      { traceparent: `00-${TRACE}-${'0'.repeat(16)}-01` },
    ]) {
      expect(parentOf(meta), JSON.stringify(meta)).toBeUndefined();
    }
  });
});
