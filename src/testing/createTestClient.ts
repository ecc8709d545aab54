import { clockOf, keepAliveClock, systemClock } from '../_internal/clock.js';
import type { FsmStateValue } from '../fsm/types.js';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type AuthInfo } from '@modelcontextprotocol/server';
import type { ToolResponse } from '../protocol/types.js';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { buildServer } from '../server/buildServer.js';
import type { ServeOptions } from '../server/types.js';
import type { TestClock } from './createClock.js';
import { sessionStateStore, type SessionStateStore } from './sessionStateStore.js';

/** Options of {@link createTestClient}: the serve options, plus the test's own clock. */
export type TestClientOptions<Ctx> = Omit<ServeOptions<Ctx>, 'clock'> & {
  /**
   * The test's clock (`createClock()`): timestamps, TTLs, and the runtime's timers (tool deadlines, the
   * `list_changed` debounce, store sweeps) run on it; see {@link TestClock}.
   */
  clock?: Pick<TestClock, 'now'>;
  /**
   * The verified token every request of this client carries, as an authenticated HTTP request would
   * (`extra.authInfo`, the principal, scopes, rate limits): test a principal's view without a server.
   * @example createTestClient(registry, { authInfo: { token: 't', clientId: 'app', scopes: ['notes:read'], extra: { sub: 'alice' } } })
   */
  authInfo?: AuthInfo;
};

/** What {@link TestClient.call} resolves to. */
export interface CallOutcome {
  isError: boolean;
  /** Every content block: text blocks JSON-parsed where they parse, other blocks as they came. */
  content: unknown[];
  /** The raw `tools/call` result. */
  result: ToolResponse;
}

/** A connected SDK client over an in-memory link, with helpers for tests. */
export interface TestClient {
  /** The real SDK `Client` (legacy era, in-memory). */
  readonly client: Client;
  /** Names from `tools/list`, in order. */
  listToolNames(): Promise<string[]>;
  /** Calls a tool; resolves to the raw result. */
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResponse>;
  /** Calls a tool and returns its text blocks, JSON-parsed where they parse. */
  call(name: string, args?: Record<string, unknown>): Promise<CallOutcome>;
  /**
   * Puts this test session in workflow state `state` (FSM tests), as if earlier calls had led there.
   * Takes effect on the next request. Sends `notifications/tools/list_changed` only with `{ notify: true }`.
   */
  setState(state: string, options?: { notify?: boolean }): Promise<void>;
  /** This session's workflow state (the machine's initial state until a transition or `setState`). */
  state(): Promise<FsmStateValue>;
  /** Count of `notifications/tools/list_changed` received so far. */
  readonly listChangedCount: number;
  /** Resolves on the next `notifications/tools/list_changed`. */
  nextListChanged(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Connects a real SDK `Client` to a registry in-process (legacy era: one connection = one session).
 * With an `fsm`, the session's workflow state lives in a store the test client controls (wrapping your
 * `fsmStore` if you pass one), which is what lets `setState` and `state` work without a session id.
 * @example
 * await using t = await createTestClient(registry, { fsm: gate });
 * await t.setState('payment');
 * expect(await t.listToolNames()).toContain('cart.pay');
 * @see docs/testing.md
 */
export function createTestClient<Ctx>(
  registry: ToolRegistry<Ctx>,
  options: TestClientOptions<Ctx> = {},
): Promise<TestClient> {
  return connectTestClient(registry, options, new Client({ name: 'mcp-fusion-test', version: '1.0.0' }));
}

/** {@link createTestClient} with the SDK `Client` given (its capabilities and request handlers set); internal. */
export async function connectTestClient<Ctx>(
  registry: ToolRegistry<Ctx>,
  options: TestClientOptions<Ctx>,
  client: Client,
): Promise<TestClient> {
  const { clock, authInfo, ...serve } = options;
  const now = clock?.now ?? systemClock.now;
  const store: SessionStateStore | undefined =
    serve.fsm === undefined ? undefined : sessionStateStore(serve.fsmStore, `mcp-fusion-test:${randomUUID()}`);
  // A fresh options object gives this client its own runtime, so the store above sees only its session.
  const withClock: ServeOptions<Ctx> = clock === undefined ? serve : { ...serve, clock: clockOf(clock.now) };
  const attachOptions: ServeOptions<Ctx> = store === undefined ? withClock : { ...withClock, fsmStore: store };
  const runtime = registry.runtime(attachOptions);
  const { server, attachment } = buildServer(runtime, attachOptions, 'legacy');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (authInfo !== undefined) {
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, sendOptions) => send(message, { ...sendOptions, authInfo });
  }
  let count = 0;
  let waiters: Array<() => void> = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    count++;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  });
  await server.connect(serverSide);
  await client.connect(clientSide);
  const callTool = async (name: string, args: Record<string, unknown> = {}): Promise<ToolResponse> =>
    (await client.callTool({ name, arguments: args })) as ToolResponse;
  const close = async (): Promise<void> => {
    await client.close();
    await server.close();
    if (store !== undefined) runtime.dispose();
  };
  const requireStateMachineGate = (method: string) => {
    if (serve.fsm === undefined || store === undefined) {
      throw new Error(`${method} needs a workflow gate: pass { fsm: gate } to createTestClient(registry, options).`);
    }
    return { gate: serve.fsm, store };
  };
  return {
    client,
    async listToolNames() {
      return (await client.listTools()).tools.map((t) => t.name);
    },
    callTool,
    async call(name, args) {
      const result = await callTool(name, args);
      const content = result.content.map((block) => (block.type === 'text' ? parseMaybe(block.text) : block));
      return { isError: result.isError === true, content, result };
    },
    async setState(state, { notify = false } = {}) {
      const { gate, store: own } = requireStateMachineGate(`setState("${state}")`);
      const states = Object.keys(gate.config.states);
      if (!states.includes(state)) {
        const machine = gate.id === undefined ? 'the FSM' : `FSM "${gate.id}"`;
        throw new Error(`setState("${state}"): ${machine} has no state "${state}"; use one of ${states.join(', ')}.`);
      }
      await own.write(state, now());
      if (notify) await attachment.notifyToolListChanged();
    },
    async state() {
      const { gate, store: own } = requireStateMachineGate('state()');
      return (await own.read())?.state ?? gate.initialState;
    },
    get listChangedCount() {
      return count;
    },
    nextListChanged(timeoutMs = 2_000) {
      return new Promise<void>((resolve, reject) => {
        // A real wait (the test's own clock may stand still), which keeps the process alive while it waits.
        const timer = keepAliveClock.setTimeout(
          () => reject(new Error(`no notifications/tools/list_changed within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push(() => {
          timer.cancel();
          resolve();
        });
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
