import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** Writes one line per finished span to stderr (stdout belongs to the protocol over stdio). */
class StderrSpanExporter implements SpanExporter {
  export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    for (const span of spans) {
      const ms = span.duration[0] * 1e3 + span.duration[1] / 1e6;
      const parent = span.parentSpanContext === undefined ? '' : ` parent=${span.parentSpanContext.spanId}`;
      const error =
        span.attributes['error.type'] === undefined ? '' : ` error.type=${String(span.attributes['error.type'])}`;
      const events = span.events.length === 0 ? '' : ` events=${span.events.map((e) => e.name).join(',')}`;
      console.error(
        `[span] ${span.name} ${ms.toFixed(1)}ms trace=${span.spanContext().traceId}${parent}${error}${events}`,
      );
    }
    done({ code: 0 });
  }

  async shutdown(): Promise<void> {}
}

/** Registers a global tracer provider that prints spans to stderr, for `MCP_TRACING=1 npm start`. */
export function traceToStderr(): void {
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new StderrSpanExporter())] }),
  );
}
