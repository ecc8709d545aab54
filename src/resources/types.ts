import type { InputRequiredReturn, HandlerExtra } from '../protocol/types.js';
import type { Completer } from '../completion/types.js';
import type { Icon, ListedMetadata, ResourceAnnotations, WireResource, WireResourceTemplate } from '../domain/types.js';
import type { CompiledUriTemplate } from './compileUriTemplate.js';

/** One text item of a `resources/read` result. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}

/** One binary item of a `resources/read` result (`blob` is base64). */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Record<string, unknown>;
}

/** An MCP `ReadResourceResult`, the plain shape every `resources/read` resolves to. */
export interface ReadResourceResult {
  contents: Array<TextResourceContents | BlobResourceContents>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One item as a handler may write it: `uri` and `mimeType` default to the resource's; bytes become base64. */
export type ResourceContentsInput =
  | string
  | Uint8Array
  | { text: string; uri?: string; mimeType?: string; _meta?: Record<string, unknown> }
  | { blob: string | Uint8Array; uri?: string; mimeType?: string; _meta?: Record<string, unknown> };

/**
 * What a resource handler may return: text, bytes, `{ text }`, `{ blob }`, a list of those, or the whole
 * `ReadResourceResult`. `undefined` or `null` answers "Resource not found" (useful in templates). An
 * `inputRequired(...)` return asks the client for input first and passes through untouched.
 */
export type ResourceReturn =
  | ResourceContentsInput
  | readonly ResourceContentsInput[]
  | ReadResourceResult
  | InputRequiredReturn
  | null
  | undefined;

/** `(uri, ctx, extra)` for a fixed resource. */
export type ResourceHandler<Ctx> = (
  uri: string,
  ctx: Ctx,
  extra: HandlerExtra,
) => ResourceReturn | Promise<ResourceReturn>;

/** `(uri, vars, ctx, extra)` for a template: `vars` holds the decoded `{variables}` of the URI. */
export type TemplateHandler<Ctx, Vars> = (
  uri: string,
  vars: Vars,
  ctx: Ctx,
  extra: HandlerExtra,
) => ResourceReturn | Promise<ResourceReturn>;

type VariableNames<T extends string> = T extends `${string}{${infer V}}${infer Rest}` ? V | VariableNames<Rest> : never;

/** The variables of a URI template literal: `'app://{a}/{b}'` ⇒ `{ a: string; b: string }`. */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string>
  : { [K in VariableNames<T>]: string };

/** A concrete resource a template's `.list()` reports; unset fields default to the template's. */
export interface ListedResource extends ListedMetadata {
  uri: string;
  name?: string;
  size?: number;
}

/** Enumerates the concrete resources behind a template, for `resources/list`. */
export type TemplateLister<Ctx> = (
  ctx: Ctx,
  extra: HandlerExtra,
) => readonly ListedResource[] | Promise<readonly ListedResource[]>;

/** Metadata shared by resources and templates, frozen at build time. */
interface BuiltResourceBase {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly mimeType: string | undefined;
  readonly annotations: Readonly<ResourceAnnotations> | undefined;
  readonly icons: readonly Readonly<Icon>[] | undefined;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** OAuth scopes a principal must hold to list and read it (`.requireScopes()`). */
  readonly requiredScopes?: readonly string[] | undefined;
  /** Tool-domain globs this resource mirrors (`sprints.*`), declared with `.reflects()`; State Sync uses them. */
  readonly reflects: readonly string[];
}

/**
 * A built, frozen resource at a fixed URI. Produced by `f.resource(uri)…handle(fn)`; register it with
 * `registry.register(resource)`.
 */
export interface FusionResource<Ctx = any> extends BuiltResourceBase {
  readonly kind: 'resource';
  readonly uri: string;
  readonly size: number | undefined;
  /** Frozen, exactly as listed. */
  readonly definition: Readonly<WireResource>;
  /** Runs the handler and shapes its return; undefined means "not found". Throws on a bad return. */
  readonly read: (uri: string, ctx: Ctx, extra: HandlerExtra) => Promise<ReadResourceResult | undefined>;
}

/**
 * A built, frozen resource template (`app://items/{id}`). Produced by `f.resourceTemplate(t)…handle(fn)`.
 */
export interface FusionResourceTemplate<Ctx = any> extends BuiltResourceBase {
  readonly kind: 'resourceTemplate';
  readonly uriTemplate: string;
  /** The template compiled once: `match(uri)` gives its variables. */
  readonly compiled: CompiledUriTemplate;
  /** Frozen, exactly as listed by `resources/templates/list`. */
  readonly definition: Readonly<WireResourceTemplate>;
  readonly read: (
    uri: string,
    vars: Record<string, string>,
    ctx: Ctx,
    extra: HandlerExtra,
  ) => Promise<ReadResourceResult | undefined>;
  /** Completers by variable name (`.complete()`), for `completion/complete`. */
  readonly completers: ReadonlyMap<string, Completer<Ctx>>;
  /** The concrete resources for `resources/list`, when the template has a `.list()` callback. */
  readonly list: ((ctx: Ctx, extra: HandlerExtra) => Promise<WireResource[]>) | undefined;
}
