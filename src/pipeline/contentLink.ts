import type { ContentPipeline } from './ContentPipeline.js';
import type { RequestPipeline } from './RequestPipeline.js';

const links = new WeakMap<RequestPipeline<any>, ContentPipeline<any>>();

/**
 * Pairs a request pipeline with the content pipeline built from the same registry and options, so that
 * every entry point holding the request pipeline (attach, per-request and per-session servers, stdio,
 * test clients) serves the prompts and resources too.
 */
export function linkContent<Ctx>(pipeline: RequestPipeline<Ctx>, content: ContentPipeline<Ctx>): void {
  links.set(pipeline, content);
}

/** The content pipeline paired with `pipeline`; undefined when its registry has no prompts or resources. */
export function contentOf<Ctx>(pipeline: RequestPipeline<Ctx>): ContentPipeline<Ctx> | undefined {
  return links.get(pipeline);
}
