import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import type { SessionRecord } from '../../session/types.js';
import { httpError, type HttpErrorKind } from '../http/httpErrors.js';

/** The parts of an `initialize` a legacy session keeps. */
export type InitializeParams = Pick<SessionRecord, 'protocolVersion' | 'clientInfo' | 'clientCapabilities'>;

/**
 * Checks the params of a legacy `initialize` before any session exists: shape (`protocolVersion`,
 * `clientInfo.name`/`.version`, `capabilities`), nesting depth and serialized size. Answers `400`
 * (`-32602`, naming the field) or `413` as a `Response`; never recurses, whatever the input.
 */
export function checkInitializeParams(
  body: unknown,
  limits: { maxBytes: number; maxDepth: number },
): { init: InitializeParams } | { response: Response } {
  const id = jsonRpcIdOf(body);
  const bad = (text: string, kind: HttpErrorKind = 'invalidInitialize'): { response: Response } => ({
    response: httpError(kind, text, id),
  });
  const params = (body as { params?: unknown }).params;
  if (!isObject(params))
    return bad('Invalid initialize: params must be an object with protocolVersion, capabilities and clientInfo.');
  const depth = depthOf(params, limits.maxDepth);
  if (depth > limits.maxDepth)
    return bad(
      `Invalid initialize: params are nested deeper than ${limits.maxDepth} levels. Send only the capabilities the client has.`,
    );
  const { protocolVersion, clientInfo, capabilities } = params as Record<string, unknown>;
  if (typeof protocolVersion !== 'string' || protocolVersion === '')
    return bad('Invalid initialize: params.protocolVersion must be a string such as "2025-11-25".');
  if (!isObject(clientInfo))
    return bad(
      'Invalid initialize: params.clientInfo is missing; send clientInfo: { name, version } naming the client.',
    );
  if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string')
    return bad('Invalid initialize: params.clientInfo needs string name and version fields.');
  if (capabilities !== undefined && !isObject(capabilities))
    return bad('Invalid initialize: params.capabilities must be an object.');
  const bytes = Buffer.byteLength(JSON.stringify({ protocolVersion, clientInfo, capabilities }), 'utf8');
  if (bytes > limits.maxBytes) {
    return bad(
      `Invalid initialize: params take ${bytes} bytes, over this server's limit of ${limits.maxBytes}. Send only the capabilities and client info the client needs.`,
      'initializeTooLarge',
    );
  }
  return {
    init: {
      protocolVersion,
      clientInfo: clientInfo as InitializeParams['clientInfo'],
      clientCapabilities: (capabilities ?? {}) as Record<string, unknown>,
    },
  };
}

/**
 * The answer to an `initialize` the SDK's check refused: the field at fault when {@link checkInitializeParams}
 * finds one, else that the request does not match the initialize schema of the version it names.
 */
export function refuseInitialize(
  body: unknown,
  limits: { maxInitializeBytes: number; maxInitializeDepth: number },
): Response {
  const checked = checkInitializeParams(body, {
    maxBytes: limits.maxInitializeBytes,
    maxDepth: limits.maxInitializeDepth,
  });
  return 'response' in checked
    ? checked.response
    : httpError(
        'invalidInitialize',
        'Invalid initialize: the request does not match the initialize schema of the protocol version it names.',
        jsonRpcIdOf(body),
      );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Depth of a JSON value, walking iteratively and stopping once it passes `cap`. */
function depthOf(value: unknown, cap: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) max = depth;
    if (max > cap) return max;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}
