/**
 * Names from the OpenTelemetry semantic conventions for MCP (spans `span.mcp.server`, metrics
 * `mcp.server.operation.duration` and `mcp.server.session.duration`), and the mcp-fusion event names.
 * @see docs/observability.md
 */
export const ATTR = Object.freeze({
  methodName: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
} as const);

/** Metric instruments of the conventions (unit `s`, histograms). */
export const METRIC = Object.freeze({
  operationDuration: 'mcp.server.operation.duration',
  sessionDuration: 'mcp.server.session.duration',
} as const);

/** The bucket boundaries the conventions advise for both duration histograms, in seconds. */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
]);

/** `error.type` of a `CallToolResult` with `isError: true` (the conventions' value). */
export const TOOL_ERROR = 'tool_error';

/** Span events mcp-fusion adds to the request span, and their attributes. */
export const EVENT = Object.freeze({
  invalidation: 'mcp_fusion.state_sync.invalidation',
  transition: 'mcp_fusion.fsm.transition',
  refusal: 'mcp_fusion.refusal',
  task: 'mcp_fusion.task.created',
} as const);

/** Attributes of the mcp-fusion span events. */
export const EVENT_ATTR = Object.freeze({
  patterns: 'mcp_fusion.state_sync.patterns',
  causedBy: 'mcp_fusion.state_sync.caused_by',
  machine: 'mcp_fusion.fsm.machine',
  from: 'mcp_fusion.fsm.from',
  to: 'mcp_fusion.fsm.to',
  event: 'mcp_fusion.fsm.event',
  reason: 'mcp_fusion.refusal.reason',
  message: 'mcp_fusion.refusal.message',
  taskId: 'mcp_fusion.task.id',
  taskStatus: 'mcp_fusion.task.status',
} as const);
