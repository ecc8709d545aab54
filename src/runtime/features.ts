import { nowOf, nowOption } from '../_internal/clock.js';
import type { AttachOptions } from './core/options.js';
import { ResourceSubscriptions } from '../resources/ResourceSubscriptions.js';
import type { ContentRuntime } from './content/ContentRuntime.js';
import { RequestTracing } from '../tracing/RequestTracing.js';
import { RequestStateSeal } from './request-state/RequestStateSeal.js';
import { warnOf } from '../logging/warnOf.js';

/** The optional protocol features the servers of one registry and options offer, built once. */
export interface RuntimeFeatures {
  /** The `logging` capability (`logging/setLevel`, `notifications/message`). */
  readonly logging: boolean;
  /** Legacy `resources/subscribe` bookkeeping, when enabled and there are resources to subscribe to. */
  readonly subscriptions: ResourceSubscriptions | undefined;
  /** Seals and opens multi-round-trip `requestState`. */
  readonly requestState: RequestStateSeal;
  /** OpenTelemetry spans and metrics of every request, when the `tracing` option is set. */
  readonly tracing: RequestTracing | undefined;
}

/** Builds the features `options` ask for, once per runtime (subscriptions only where there is content to subscribe to). */
export function buildFeatures<Ctx>(
  options: AttachOptions<Ctx>,
  content: ContentRuntime<Ctx> | undefined,
): RuntimeFeatures {
  const subscribe = options.resourceSubscriptions;
  return Object.freeze({
    logging: options.logging === true,
    subscriptions:
      subscribe === undefined || subscribe === false || content?.hasResources !== true
        ? undefined
        : new ResourceSubscriptions((uri) => content.hasResource(uri), {
            ...(options.clock !== undefined ? { now: nowOf(options.clock) } : {}),
            ...(subscribe === true ? {} : subscribe),
          }),
    requestState: new RequestStateSeal(options.requestState, nowOption(options.clock)),
    tracing:
      options.tracing === undefined || options.tracing === false
        ? undefined
        : new RequestTracing(options.tracing, warnOf(options)),
  });
}
