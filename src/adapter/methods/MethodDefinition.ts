import type { ProtocolEra } from '../../protocol/types.js';
import type { FusionRuntime } from '../../runtime/FusionRuntime.js';
import type { TaskService } from '../../runtime/tasks/TaskService.js';
import type { SkillSet } from '../../skills/SkillSet.js';
import type { RequestContext } from '../../surface/types.js';
import type { ContextOf, MethodHandler } from '../contentHandlers.js';
import type { taskCall } from '../taskHandlers.js';

/**
 * What one server's wiring hands every method's handler: the runtime, the SDK line and era, and the request
 * contexts built for this server (the same for every method, made once by `wireRuntime`).
 */
export interface MethodWire {
  readonly runtime: FusionRuntime<any>;
  readonly sdk: 'v1' | 'v2';
  readonly era: ProtocolEra | undefined;
  /** The id of this connection (the session key of a request without one). */
  readonly connectionId: string;
  /** The request context of an SDK handler context (`target` and `state`: an opened `requestState`). */
  readonly rctxOf: (ctx: unknown, target?: string, state?: unknown) => RequestContext;
  /** The context of a multi-round-trip request addressing `target` (its echoed `requestState` opened first). */
  readonly contextOf: ContextOf;
  /** Registers the caller's session with the runtime once (gated tools notify it), and returns its request context (`rctx`). */
  readonly track: (rctx: RequestContext) => RequestContext;
  /** The task service on the v2 SDK line (undefined when no tool supports tasks). */
  readonly tasks: TaskService | undefined;
  /** The `tools/call` task dispatch (with `tasks`). */
  readonly taskDispatch: ReturnType<typeof taskCall> | undefined;
  /** The skills served on the v2 SDK line. */
  readonly skills: SkillSet | undefined;
  /** The v1 connection's log levels, when mcp-fusion answers `logging/setLevel` itself. */
  readonly v1Levels: Map<string, string> | undefined;
  /** The resource subscriptions of a legacy server (the `resourceSubscriptions` option). */
  readonly subscriptions: FusionRuntime<any>['features']['subscriptions'] | undefined;
  /** The session keys of this server that subscribed to something. */
  readonly subscribed: Set<string>;
  /** Sends a notification to this server's client. */
  readonly sendToClient: (notification: unknown) => Promise<void>;
  /**
   * Where a subscriber's updates go: with a session bus, to the instance holding the session `key`'s GET
   * stream; else to this server's client.
   */
  readonly sendToSession: (key: string) => (notification: unknown) => Promise<void>;
  /** Tells the session's other instances its subscription to `uri` was taken or ended here (with a bus). */
  readonly announceSubscription: (key: string, uri: unknown) => void;
}

/** A params schema the v2 SDK validates an extension method's params with (it needs one to install it). */
export type ParamsSchema = Readonly<Record<'params', unknown>>;

/**
 * One MCP method, in a file of its own under `adapter/methods/`: its name, whether a server of this wiring
 * answers it (the capability it needs), and its handler over the runtime. Every method is installed through
 * the one wrapper of `wireRuntime` (its span, its failures logged, the request context's adoption); its place is given by
 * `methodList.ts` alone.
 */
export interface MethodDefinition {
  readonly method: string;
  /** True when this server answers the method (the runtime serves what it needs, on this SDK line and era). */
  readonly needs: (wire: MethodWire) => boolean;
  /** The handler, `(request, sdkContext) => result` with `request` as `{ method, params }`. */
  readonly handler: (wire: MethodWire) => MethodHandler;
  /** True when the runtime logs the method's failures itself (the wrapper's error boundary then does not). */
  readonly logsFailures?: true;
  /**
   * Set for methods installed on the server as they are, never composed with a server's own handler of the
   * same name (the task methods); the params schema the SDK validates them with, when it wants one.
   */
  readonly alone?: (wire: MethodWire) => {
    readonly schema: ParamsSchema | undefined;
    /** The method name it is installed under, when the era names it otherwise (2026-07-28's task inventory). */
    readonly installedAs?: string;
  };
}

/** Declares a method (a typed identity: the list reads the definitions). */
export function defineMethod(definition: MethodDefinition): MethodDefinition {
  return definition;
}
