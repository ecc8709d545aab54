import { ATTR } from './semconv.js';

/** Attribute values as OpenTelemetry accepts them. */
export type AttributeMap = Record<string, string | number | boolean | string[]>;

/** What the SDK handler context says about one request, whichever SDK line served it. */
export interface RequestFacts {
  readonly sessionId: string | undefined;
  readonly requestId: string | number | undefined;
  readonly protocolVersion: string | undefined;
  /** True when the request came over HTTP (Streamable HTTP). */
  readonly http: boolean;
}

/** The envelope key of the protocol revision on a modern (2026-07-28) request. */
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/**
 * Reads the facts of a v2 handler context (`ctx.mcpReq`, `ctx.sessionId`, `ctx.http`) or a v1 `extra`
 * (`requestId`, `sessionId`, `requestInfo`). `negotiated` gives the legacy connection's version.
 */
export function factsOf(ctx: any, negotiated: () => string | undefined): RequestFacts {
  const req = ctx?.mcpReq;
  const envelope = req?.envelope?.[PROTOCOL_VERSION];
  return {
    sessionId: typeof ctx?.sessionId === 'string' ? ctx.sessionId : undefined,
    requestId: req !== undefined ? req.id : ctx?.requestId,
    protocolVersion: typeof envelope === 'string' ? envelope : negotiated(),
    http: req !== undefined ? ctx?.http?.req !== undefined : ctx?.requestInfo !== undefined,
  };
}

/**
 * The span name and attributes of an MCP request under the OpenTelemetry conventions: the name is
 * `{mcp.method.name} {target}` with the tool or prompt name as target (never a resource URI: high
 * cardinality); the metric attributes leave out the per-request ids.
 */
export function requestAttributes(
  method: string,
  params: Record<string, unknown> | undefined,
  facts: RequestFacts,
): { name: string; span: AttributeMap; metric: AttributeMap } {
  const metric: AttributeMap = { [ATTR.methodName]: method };
  let target: string | undefined;
  const name = typeof params?.name === 'string' ? params.name : undefined;
  if (method === 'tools/call' && name !== undefined) {
    target = name;
    metric[ATTR.toolName] = name;
    metric[ATTR.operationName] = 'execute_tool';
  } else if (method === 'prompts/get' && name !== undefined) {
    target = name;
    metric[ATTR.promptName] = name;
  }
  if (facts.protocolVersion !== undefined) metric[ATTR.protocolVersion] = facts.protocolVersion;
  if (facts.http) {
    metric[ATTR.networkTransport] = 'tcp';
    metric[ATTR.networkProtocolName] = 'http';
  }
  const span: AttributeMap = { ...metric };
  if (facts.sessionId !== undefined) span[ATTR.sessionId] = facts.sessionId;
  if (facts.requestId !== undefined && facts.requestId !== null) span[ATTR.requestId] = String(facts.requestId);
  if (typeof params?.uri === 'string') span[ATTR.resourceUri] = params.uri;
  return { name: target === undefined ? method : `${method} ${target}`, span, metric };
}
