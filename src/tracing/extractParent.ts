import type * as Otel from '@opentelemetry/api';

type Api = typeof Otel;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/** Reads string entries of a request's `params._meta` for the propagators. */
const metaGetter: Otel.TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * The caller's trace context from `params._meta` (`traceparent`, `tracestate`, `baggage`), as the MCP
 * conventions propagate it: through the registered propagators first, then, when none is registered,
 * by reading the W3C `traceparent` directly. Undefined when `_meta` carries no valid context.
 */
export function extractParent(api: Api, meta: unknown): Otel.Context | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const carrier = meta as Record<string, unknown>;
  const extracted = api.propagation.extract(api.ROOT_CONTEXT, carrier, metaGetter);
  if (api.trace.getSpanContext(extracted) !== undefined) return extracted;
  const header = carrier.traceparent;
  const m = typeof header === 'string' ? TRACEPARENT.exec(header.trim().toLowerCase()) : null;
  if (m === null || m[1] === 'ff') return undefined;
  const state = carrier.tracestate;
  const spanContext: Otel.SpanContext = {
    traceId: m[2]!,
    spanId: m[3]!,
    traceFlags: Number.parseInt(m[4]!, 16) & 1,
    isRemote: true,
    ...(typeof state === 'string' && state.length > 0 ? { traceState: api.createTraceState(state) } : {}),
  };
  return api.isSpanContextValid(spanContext) ? api.trace.setSpanContext(extracted, spanContext) : undefined;
}
