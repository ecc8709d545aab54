import { ContentRuntime } from './ContentRuntime.js';

export type {
  ContentSource,
  PromptListResult,
  ResourceListResult,
  ResourceTemplateListResult,
} from './ContentRuntime.js';
/** @deprecated use {@link ContentRuntime} (`runtime.content`). */
export const ContentPipeline = ContentRuntime;
/** @deprecated use {@link ContentRuntime} (`runtime.content`). */
export type ContentPipeline<Ctx = any> = ContentRuntime<Ctx>;
