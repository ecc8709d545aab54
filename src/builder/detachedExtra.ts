import { principalOf } from '../principal/principalOf.js';
import type { HandlerExtra } from '../protocol/types.js';

const notInRequest = async (): Promise<never> => {
  throw new Error(
    'No client is connected: this call runs outside an MCP request, so it cannot ask the client anything.',
  );
};

/**
 * A {@link HandlerExtra} for running a tool outside an MCP request (tests, scripts, the CLI): a live
 * signal, no-op progress and logging, and client requests that fail with a clear error.
 */
export function detachedExtra(overrides: Partial<HandlerExtra> = {}): HandlerExtra {
  return {
    signal: new AbortController().signal,
    sessionId: undefined,
    era: 'legacy',
    requestId: 0,
    authInfo: undefined,
    meta: undefined,
    clientCapabilities: undefined,
    progress: async () => {},
    log: async () => {},
    elicit: notInRequest,
    sample: notInRequest,
    inputResponses: undefined,
    requestState: undefined,
    sealState: async () => {
      throw new Error(
        'No MCP request: sealState() binds the state to a request and its caller, so it only works inside a handler serving one.',
      );
    },
    raw: undefined,
    principal: principalOf(overrides.authInfo, 'detached'),
    ...overrides,
  };
}
