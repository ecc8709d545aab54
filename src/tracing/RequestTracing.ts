import { monotonicClock, systemClock } from '../_internal/clock.js';
import type * as Otel from '@opentelemetry/api';
import { loadOptional } from '../_internal/loadOptional.js';
import { MissingPeerError } from '../errors/FusionError.js';
import { META } from '../state-sync/metaKeys.js';
import { extractParent } from './extractParent.js';
import { factsOf, requestAttributes, type AttributeMap } from './requestAttributes.js';
import { ATTR, DURATION_BUCKETS, EVENT, EVENT_ATTR, METRIC, TOOL_ERROR } from './semconv.js';
import type { RequestTrace, TracingOptions } from './types.js';
import { refusedRequest } from './refusedRequest.js';
import { sessionDurations } from './sessionDurations.js';
import type { SessionEvent, SessionRecord } from '../session/types.js';

type Api = typeof Otel;
type Handler = (request: any, ctx: any) => unknown;

interface Instruments {
  readonly api: Api;
  readonly tracer: Otel.Tracer;
  readonly operation: Otel.Histogram;
  readonly session: Otel.Histogram;
}

const SCOPE = 'mcp-fusion';
/** The first protocol revision without sessions (revisions are dates, so they compare as strings). */
const MODERN_REVISION = '2026-07-28';

/**
 * OpenTelemetry for the MCP requests of one pipeline: a SERVER span per request, named and attributed
 * by the MCP semantic conventions and parented on the caller's `params._meta` trace context, span events
 * for FSM transitions, State Sync invalidations and refusals, and the `mcp.server.operation.duration` and
 * `mcp.server.session.duration` histograms. Built only when the `tracing` option is set; `@opentelemetry/api`
 * is imported lazily on construction (or given as `tracing.api`).
 * @see docs/observability.md
 */
export class RequestTracing {
  #instruments: Instruments | undefined;
  readonly #ready: Promise<void>;
  readonly #traces = new WeakMap<object, RequestTrace>();
  /** True once the HTTP app times its legacy sessions by their lifecycle (then a server's lifetime is not a session). */
  #lifecycle = false;

  constructor(options: true | TracingOptions, warn: (message: string) => void) {
    const given = options === true ? {} : options;
    if (given.api !== undefined) {
      this.#instruments = instrumentsOf(given.api, given);
      this.#ready = Promise.resolve();
      return;
    }
    this.#ready = loadOptional<Api>('@opentelemetry/api').then((api) => {
      if (api === undefined) {
        const error = new MissingPeerError(
          'MISSING_PEER',
          'The tracing option needs the optional package "@opentelemetry/api"; run `npm install @opentelemetry/api` (and an SDK that registers a provider), or pass it as tracing: { api }. Requests are served untraced.',
          { package: '@opentelemetry/api' },
        );
        warn(error.message);
      } else this.#instruments = instrumentsOf(api, given);
    });
  }

  /** Settles once `@opentelemetry/api` is loaded, or known to be missing. */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** `handler` of `method`, traced. `negotiated` reads the protocol version of a legacy connection. */
  wrap(method: string, handler: Handler, negotiated: () => string | undefined): Handler {
    return (request, ctx) => {
      const instruments = this.#instruments;
      if (instruments !== undefined) return this.#run(instruments, { method, request, ctx, negotiated }, handler);
      return this.#ready.then(() =>
        this.#instruments === undefined
          ? handler(request, ctx)
          : this.#run(this.#instruments, { method, request, ctx, negotiated }, handler),
      );
    };
  }

  /** The span recorder of the request whose SDK handler context is `ctx` (undefined outside a traced request). */
  traceOf(ctx: unknown): RequestTrace | undefined {
    return typeof ctx === 'object' && ctx !== null ? this.#traces.get(ctx) : undefined;
  }

  /**
   * Starts timing an MCP session (a legacy connection); call the result when it ends to record its
   * duration. Connections that end without a legacy handshake record nothing.
   */
  startSession(negotiated: () => string | undefined): () => void {
    const started = monotonicClock.now();
    let ended = false;
    return () => {
      if (ended || this.#lifecycle || this.#instruments === undefined) return;
      ended = true;
      const version = negotiated();
      // Only legacy connections are sessions: a server that never initialized, or served 2026-07-28, had none.
      if (version === undefined || version >= MODERN_REVISION) return;
      this.#instruments.session.record(
        (monotonicClock.now() - started) / 1000,
        version === undefined ? {} : { [ATTR.protocolVersion]: version },
      );
    };
  }

  /**
   * Times legacy HTTP sessions by their lifecycle instead of their servers' lifetimes (a server is released
   * when its session goes idle, and rebuilt on its next request): feed the returned function the session
   * manager's events; `mcp.server.session.duration` is recorded when a session closes (DELETE, expiry,
   * eviction), from its creation, with `network.transport` `tcp` and `network.protocol.name` `http`.
   */
  timeSessions(recordOf: (id: string) => SessionRecord | undefined): (event: SessionEvent) => void {
    this.#lifecycle = true;
    return sessionDurations(recordOf, (seconds, version) => {
      this.#instruments?.session.record(seconds, {
        [ATTR.protocolVersion]: version,
        [ATTR.networkTransport]: 'tcp',
        [ATTR.networkProtocolName]: 'http',
      });
    });
  }

  /**
   * A SERVER span (and the operation duration, when the MCP method is known) for a request the HTTP front
   * answered itself: 401 without a valid token, 403 scope challenge. `error.type` is the challenge's OAuth
   * error code. Returns `response`.
   */
  refused(request: Request, body: unknown, response: Response): Response {
    const started = monotonicClock.now();
    const startTime = systemClock.now();
    const record = (instruments: Instruments): void => {
      const { api, tracer } = instruments;
      const refusal = refusedRequest(request, body, response);
      const active = api.context.active();
      const remote = extractParent(api, refusal.meta);
      const span = tracer.startSpan(
        refusal.name,
        { kind: api.SpanKind.SERVER, attributes: { ...refusal.span, [ATTR.errorType]: refusal.errorType }, startTime },
        remote ?? active,
      );
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: `HTTP ${response.status} ${refusal.errorType}` });
      span.end();
      if (refusal.metric !== undefined)
        instruments.operation.record((monotonicClock.now() - started) / 1000, {
          ...refusal.metric,
          [ATTR.errorType]: refusal.errorType,
        });
    };
    if (this.#instruments !== undefined) record(this.#instruments);
    else void this.#ready.then(() => this.#instruments !== undefined && record(this.#instruments));
    return response;
  }

  async #run(
    instruments: Instruments,
    call: { method: string; request: any; ctx: any; negotiated: () => string | undefined },
    handler: Handler,
  ): Promise<unknown> {
    const { api, tracer } = instruments;
    const { method, request, ctx } = call;
    const params = request?.params as Record<string, unknown> | undefined;
    const { name, span: attributes, metric } = requestAttributes(method, params, factsOf(ctx, call.negotiated));
    const active = api.context.active();
    const remote = extractParent(api, params?._meta ?? ctx?.mcpReq?._meta);
    // The conventions parent the server span on the MCP caller and link the ambient (e.g. HTTP) context.
    const ambient = remote === undefined ? undefined : api.trace.getSpanContext(active);
    const parent = remote ?? active;
    const span = tracer.startSpan(
      name,
      { kind: api.SpanKind.SERVER, attributes, ...(ambient !== undefined ? { links: [{ context: ambient }] } : {}) },
      parent,
    );
    if (typeof ctx === 'object' && ctx !== null) this.#traces.set(ctx, recorderOf(span));
    const started = monotonicClock.now();
    try {
      const result = await api.context.with(api.trace.setSpan(parent, span), () => handler(request, ctx));
      const errorType = resultOutcome(api, span, method, result);
      if (method === 'initialize') negotiatedVersion(span, metric, result);
      if (errorType !== undefined) metric[ATTR.errorType] = errorType;
      return result;
    } catch (error) {
      const code = jsonRpcCodeOf(error);
      span.setAttributes({ [ATTR.errorType]: code, [ATTR.statusCode]: code });
      span.setStatus({
        code: api.SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      metric[ATTR.errorType] = code;
      metric[ATTR.statusCode] = code;
      throw error;
    } finally {
      span.end();
      instruments.operation.record((monotonicClock.now() - started) / 1000, metric);
    }
  }
}

function instrumentsOf(module: object, given: TracingOptions): Instruments {
  // A CommonJS build seen through import() puts the API under `default`.
  const api = (
    (module as { trace?: unknown }).trace !== undefined ? module : (module as { default: object }).default
  ) as Api;
  const meter = (given.meter as Otel.Meter | undefined) ?? api.metrics.getMeter(SCOPE);
  const histogram = (name: string, description: string) =>
    meter.createHistogram(name, {
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
  return {
    api,
    tracer: (given.tracer as Otel.Tracer | undefined) ?? api.trace.getTracer(SCOPE),
    operation: histogram(
      METRIC.operationDuration,
      'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.',
    ),
    session: histogram(METRIC.sessionDuration, 'The duration of the MCP session as observed on the MCP server.'),
  };
}

function recorderOf(span: Otel.Span): RequestTrace {
  return {
    traceId: span.spanContext().traceId,
    transition: (machine, from, to, event) => {
      const attributes: AttributeMap = { [EVENT_ATTR.machine]: machine, [EVENT_ATTR.from]: from, [EVENT_ATTR.to]: to };
      if (event !== undefined) attributes[EVENT_ATTR.event] = event;
      span.addEvent(EVENT.transition, attributes);
    },
    refusal: (reason, message) => {
      span.addEvent(EVENT.refusal, { [EVENT_ATTR.reason]: reason, [EVENT_ATTR.message]: message });
    },
    task: (taskId, status) => {
      span.addEvent(EVENT.task, { [EVENT_ATTR.taskId]: taskId, [EVENT_ATTR.taskStatus]: status });
    },
  };
}

/** The version an `initialize` settled on (unknown until it answered). */
function negotiatedVersion(span: Otel.Span, metric: AttributeMap, result: unknown): void {
  const version = (result as { protocolVersion?: unknown } | null)?.protocolVersion;
  if (typeof version !== 'string') return;
  span.setAttribute(ATTR.protocolVersion, version);
  metric[ATTR.protocolVersion] = version;
}

/** Marks an `isError` tool result (`error.type` `tool_error`) and records a State Sync invalidation it carries. */
function resultOutcome(api: Api, span: Otel.Span, method: string, result: unknown): string | undefined {
  if (method !== 'tools/call' || typeof result !== 'object' || result === null) return undefined;
  const r = result as { isError?: unknown; _meta?: Record<string, unknown> };
  const invalidation = r._meta?.[META.invalidation] as { patterns?: unknown; causedBy?: unknown } | undefined;
  if (invalidation !== undefined && Array.isArray(invalidation.patterns)) {
    span.addEvent(EVENT.invalidation, {
      [EVENT_ATTR.patterns]: invalidation.patterns.map(String),
      [EVENT_ATTR.causedBy]: String(invalidation.causedBy ?? ''),
    });
  }
  if (r.isError !== true) return undefined;
  span.setAttribute(ATTR.errorType, TOOL_ERROR);
  span.setStatus({ code: api.SpanStatusCode.ERROR });
  return TOOL_ERROR;
}

/** The JSON-RPC error code a thrown error reaches the client with (the SDK answers -32603 for anything else). */
function jsonRpcCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return Number.isInteger(code) && (code as number) >= -32768 && (code as number) <= -32000 ? String(code) : '-32603';
}
