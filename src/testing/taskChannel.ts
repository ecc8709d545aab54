import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ProtocolEra } from '../protocol/types.js';
import { TaskHelperError } from './taskErrors.js';

/**
 * Where the task helpers send their requests: one JSON-RPC request of the given era, resolved with its
 * result or rejected with the server's error (`ProtocolError`: `code`, `message`, `data`).
 * {@link modernTaskEndpoint} makes one for 2026-07-28; an SDK `Client` is one for 2025-11-25.
 */
export interface TaskChannel {
  readonly era: ProtocolEra;
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * What the task helpers accept: an SDK `Client` on a 2025-11-25 session (over HTTP or in memory), a
 * `createTestClient` client (its `client`), or a {@link TaskChannel} such as {@link modernTaskEndpoint}.
 */
export type TaskTarget = Client | { readonly client: Client } | TaskChannel;

/** Any JSON object: the SDK requires a result schema for the task methods, which it does not know. */
const ANY_RESULT = z.looseObject({});

/** The {@link TaskChannel} of a target. */
export function channelOf(target: TaskTarget): TaskChannel {
  if (isChannel(target)) return target;
  const client = 'client' in target && isClient(target.client) ? target.client : target;
  if (!isClient(client)) {
    throw new TaskHelperError(
      'TASK_TARGET',
      'The task helpers take an SDK Client, a createTestClient() client, or modernTaskEndpoint(url); got something else.',
    );
  }
  if (client.getProtocolEra() === 'modern') {
    throw new TaskHelperError(
      'TASK_TARGET_MODERN_CLIENT',
      'This SDK Client negotiated 2026-07-28, where it refuses task results ("Unsupported result type \'task\'"). ' +
        'Pass modernTaskEndpoint(url) to the task helpers instead (keep the Client for everything else).',
    );
  }
  return {
    era: 'legacy',
    // The SDK knows no result schema for the task methods (and a task-augmented tools/call): any object passes.
    request: (method, params) => client.request({ method, params }, ANY_RESULT),
  };
}

function isChannel(target: TaskTarget): target is TaskChannel {
  return 'era' in target && typeof (target as { request?: unknown }).request === 'function';
}

function isClient(value: unknown): value is Client {
  const candidate = value as Partial<Client> | undefined;
  return typeof candidate?.request === 'function' && typeof candidate.getProtocolEra === 'function';
}
