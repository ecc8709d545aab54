import type { AttachOptions } from '../registry/types.js';
import { ResourceSubscriptions } from '../resources/ResourceSubscriptions.js';
import type { ContentPipeline } from './ContentPipeline.js';
import type { RequestPipeline } from './RequestPipeline.js';
import { RequestTracing } from '../tracing/RequestTracing.js';
import { RequestStateSeal } from './RequestStateSeal.js';

/** The optional protocol features the servers of one registry and options offer, built once. */
export interface PipelineFeatures {
  /** The `logging` capability (`logging/setLevel`, `notifications/message`). */
  readonly logging: boolean;
  /** Legacy `resources/subscribe` bookkeeping, when enabled and there are resources to subscribe to. */
  readonly subscriptions: ResourceSubscriptions | undefined;
  /** Seals and opens multi-round-trip `requestState`. */
  readonly requestState: RequestStateSeal;
  /** OpenTelemetry spans and metrics of every request, when the `tracing` option is set. */
  readonly tracing: RequestTracing | undefined;
}

const links = new WeakMap<RequestPipeline<any>, PipelineFeatures>();

/** Builds the features `options` ask for and pairs them with `pipeline` (and the content it serves). */
export function linkFeatures<Ctx>(pipeline: RequestPipeline<Ctx>, options: AttachOptions<Ctx>, content: ContentPipeline<Ctx> | undefined): PipelineFeatures {
  const subscribe = options.resourceSubscriptions;
  const features: PipelineFeatures = Object.freeze({
    logging: options.logging === true,
    subscriptions:
      subscribe === undefined || subscribe === false || content?.hasResources !== true
        ? undefined
        : new ResourceSubscriptions((uri) => content.hasResource(uri), { ...(options.now !== undefined ? { now: options.now } : {}), ...(subscribe === true ? {} : subscribe) }),
    requestState: new RequestStateSeal(options.requestState),
    tracing: options.tracing === undefined || options.tracing === false ? undefined : new RequestTracing(options.tracing, options.onWarning ?? ((m) => console.warn(`[mcp-fusion] ${m}`))),
  });
  links.set(pipeline, features);
  return features;
}

/** The features of `pipeline`; a pipeline built without a registry gets the defaults (no logging, no subscriptions). */
export function featuresOf<Ctx>(pipeline: RequestPipeline<Ctx>): PipelineFeatures {
  return links.get(pipeline) ?? linkFeatures(pipeline, {}, undefined);
}
