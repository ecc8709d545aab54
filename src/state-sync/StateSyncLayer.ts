import { compileResultDecorator, type ResultDecorator } from './compileResultDecorator.js';
import { decorateDescription } from './DescriptionDecorator.js';
import { isoClock } from './isoClock.js';
import { META } from './metaKeys.js';
import { MAX_CACHE_ENTRIES, PolicyEngine } from './PolicyEngine.js';
import { validateInlineDeclaration, validateStateSyncConfig } from './PolicyValidator.js';
import { resolveSyncPolicy } from './resolveSyncPolicy.js';
import type {
  InlineSyncDeclaration,
  InvalidationMeta,
  ResolvedPolicy,
  StateSyncConfig,
  StateSyncLayerOptions,
} from './types.js';

/** The parts of a listed tool State Sync reads; other fields are copied through. */
interface ToolLike {
  name: string;
  description?: string;
  _meta?: Record<string, unknown>;
}

/** The parts of a tool result State Sync reads; other fields are copied through. */
interface ResultLike {
  content: unknown[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * State Sync for one attachment: appends cache directives to `tools/list` descriptions and prepends
 * causal invalidation signals to successful results, telling observers and the notification sink.
 * Configuration (policies, defaults, callbacks, inline declarations) is validated here, at construction.
 *
 * A tool's policy combines its inline declaration with the registry policies as {@link resolveSyncPolicy}
 * documents: inline wins per field, the first matching policy fills the rest, `defaults.cacheControl`
 * applies only when neither gives a directive. When {@link StateSyncLayer.hasAnything} is false callers
 * should drop the layer so that no State Sync code runs.
 * @example
 * const sync = new StateSyncLayer({ policies: [{ match: 'tasks.update', invalidates: ['tasks.*', 'sprints.*'] }] });
 * sync.decorateResult('tasks.update', { content: [{ type: 'text', text: '{"ok":true}' }] });
 * // content[0].text === '[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]'
 * @see docs/state-sync.md
 */
export class StateSyncLayer {
  /** False when nothing is configured (no policy, no default directive, no inline declaration). */
  readonly hasAnything: boolean;
  readonly #engine: PolicyEngine | undefined;
  readonly #config: StateSyncConfig | undefined;
  readonly #inline: ReadonlyMap<string, InlineSyncDeclaration>;
  readonly #stamp: () => string;
  /** `decorateResult`'s compiled decorators (invalidation only), by tool name. */
  readonly #invalidators = new Map<string, ResultDecorator>();
  readonly #resolved = new Map<string, ResolvedPolicy | null>();
  readonly #decorated = new Map<
    string,
    { readonly input: ToolLike; readonly source: string | undefined; readonly output: ToolLike }
  >();

  constructor(
    config?: StateSyncConfig,
    inline: ReadonlyMap<string, InlineSyncDeclaration> = new Map(),
    options: StateSyncLayerOptions = {},
  ) {
    if (config !== undefined) validateStateSyncConfig(config);
    for (const [tool, declaration] of inline) validateInlineDeclaration(tool, declaration);
    this.#config = config;
    this.#engine = config === undefined ? undefined : new PolicyEngine(config.policies, config.defaults);
    this.#inline = new Map(inline);
    this.#stamp = isoClock(options.now ?? Date.now);
    const declared = [...inline.values()].some((d) => d.cacheControl !== undefined || (d.invalidates?.length ?? 0) > 0);
    this.hasAnything =
      declared || (config !== undefined && (config.policies.length > 0 || config.defaults?.cacheControl !== undefined));
  }

  /** The combined, frozen policy of a tool (inline over first matching policy over defaults), or `null`. */
  resolve(name: string): ResolvedPolicy | null {
    const hit = this.#resolved.get(name);
    if (hit !== undefined) return hit;
    const out = resolveSyncPolicy(this.#inline.get(name), this.#engine?.resolve(name) ?? null);
    if (this.#resolved.size >= MAX_CACHE_ENTRIES) this.#resolved.clear();
    this.#resolved.set(name, out);
    return out;
  }

  /**
   * New tool objects whose description ends with ` [Cache-Control: <directive>]` and whose `_meta` holds
   * `'fusion/cacheControl': <directive>`; tools without a directive are returned unchanged. Each tool is
   * decorated once: the same input object (with the same description) yields the same output object.
   */
  decorateTools<T extends ToolLike>(tools: readonly T[]): T[] {
    return tools.map((tool) => {
      const cached = this.#decorated.get(tool.name);
      if (cached !== undefined && cached.input === tool && cached.source === tool.description)
        return cached.output as T;
      const directive = this.resolve(tool.name)?.cacheControl;
      const output =
        directive === undefined
          ? tool
          : {
              ...tool,
              description: decorateDescription(tool.description, directive),
              _meta: { ...tool._meta, [META.cacheControl]: directive },
            };
      if (this.#decorated.size >= MAX_CACHE_ENTRIES) this.#decorated.clear();
      this.#decorated.set(tool.name, { input: tool, source: tool.description, output });
      return output;
    });
  }

  /**
   * After a successful call of `name` that invalidates something: a new result with the signal block first
   * and `_meta['fusion/invalidation']`, after telling `onInvalidation` and sending one
   * `notifications/resources/updated` per pattern to `notificationSink`. Callback failures (thrown or
   * rejected) are swallowed: they never break the call. Any other result is returned as is.
   */
  decorateResult<R extends ResultLike>(name: string, result: R): R {
    let decorate = this.#invalidators.get(name);
    if (decorate === undefined) {
      decorate = compileResultDecorator({
        causedBy: name,
        invalidates: this.resolve(name)?.invalidates,
        stamp: this.#stamp,
        announce: (meta) => this.#observe(meta),
      });
      if (this.#invalidators.size >= MAX_CACHE_ENTRIES) this.#invalidators.clear();
      this.#invalidators.set(name, decorate);
    }
    return decorate(result);
  }

  /**
   * The whole State Sync of `name`'s results, compiled once (what the `stateSync` stage of its call path
   * runs): like {@link StateSyncLayer.decorateResult}, and every successful result of a cached or stale
   * tool also carries its directive in `_meta['fusion/cacheControl']`. `recorded` hears each invalidation
   * after the observers. Undefined when no policy or declaration names the tool.
   */
  decoratorFor(name: string, recorded?: (meta: InvalidationMeta) => void): ResultDecorator | undefined {
    const policy = this.resolve(name);
    if (policy === null) return undefined;
    const announce = (meta: InvalidationMeta): void => {
      this.#observe(meta);
      recorded?.(meta);
    };
    return compileResultDecorator({
      causedBy: name,
      invalidates: policy.invalidates,
      cacheControl: policy.cacheControl,
      stamp: this.#stamp,
      announce,
    });
  }

  #observe(meta: InvalidationMeta): void {
    const config = this.#config;
    if (config === undefined) return;
    const { onInvalidation, notificationSink } = config;
    const { patterns, causedBy, at } = meta;
    if (onInvalidation !== undefined) settle(onInvalidation, { causedBy, patterns, timestamp: at });
    if (notificationSink === undefined) return;
    for (const pattern of patterns)
      settle(notificationSink, {
        method: 'notifications/resources/updated',
        params: { uri: `fusion://stale/${pattern}` },
      });
  }
}

/** Runs an observer fire-and-forget: a throw or a rejected promise must never reach the call. */
function settle<A>(observer: (arg: A) => unknown, arg: A): void {
  try {
    const pending = observer(arg);
    if (typeof (pending as PromiseLike<unknown> | undefined)?.then === 'function') {
      Promise.resolve(pending).catch(() => undefined);
    }
  } catch {
    // Swallowed by contract: observers and sinks cannot fail a tool call.
  }
}
