import type { FusionTool } from '../protocol/types.js';
import { DefinitionError } from '../errors/FusionError.js';
import { attachRuntime, type Attachment } from '../adapter/attach.js';
import { FusionRuntime } from '../runtime/FusionRuntime.js';
import { ToolSwitch } from '../surface/ToolSwitch.js';
import type { FusionPrompt } from '../prompts/types.js';
import type { FusionSkill } from '../skills/types.js';
import type { FusionResource, FusionResourceTemplate } from '../resources/types.js';
import { ContentCatalog, isContentItem, type ContentItem } from './ContentCatalog.js';
import type { AttachOptions, ToolSource } from './types.js';

/**
 * Holds built tools, prompts and resources and attaches them to SDK servers. The same items may live in
 * several registries.
 * @see docs/tools.md
 * @see docs/prompts-and-resources.md
 */
export class ToolRegistry<Ctx = any> {
  readonly #tools = new Map<string, FusionTool<Ctx>>();
  readonly #content = new ContentCatalog<Ctx>();
  #runtimes = new WeakMap<object, FusionRuntime<Ctx>>();
  readonly #switch = new ToolSwitch();

  /**
   * Adds a built tool (or every action of a grouped builder), prompt, resource, resource template or skill;
   * a duplicate of the same kind (tool, prompt or skill name, resource URI, template) throws, naming both.
   */
  register(source: ToolSource<Ctx> | ContentItem<Ctx>): this {
    if (isContentItem(source)) {
      this.#content.add(source);
      this.#runtimes = new WeakMap();
      return this;
    }
    for (const tool of toTools(source)) {
      const existing = this.#tools.get(tool.name);
      if (existing !== undefined) {
        throw new DefinitionError(
          'TOOL_DUPLICATE',
          `Tool "${tool.name}" is registered twice: first a ${existing.kind}${describeTool(existing)}, then a ${tool.kind}${describeTool(tool)}. Give one of them another name.`,
          { name: tool.name },
        );
      }
      this.#tools.set(tool.name, tool);
    }
    this.#runtimes = new WeakMap();
    return this;
  }

  /** Registers several sources in order. */
  registerAll(...sources: Array<ToolSource<Ctx> | ContentItem<Ctx>>): this {
    for (const source of sources) this.register(source);
    return this;
  }

  /** The registered tools in registration order. */
  get tools(): readonly FusionTool<Ctx>[] {
    return [...this.#tools.values()];
  }

  /** The registered prompts in registration order. */
  get prompts(): readonly FusionPrompt<Ctx>[] {
    return this.#content.prompts;
  }

  /** The registered skills (`f.skill()`) in registration order. */
  get skills(): readonly FusionSkill[] {
    return this.#content.skills;
  }

  /** The registered fixed-URI resources in registration order. */
  get resources(): readonly FusionResource<Ctx>[] {
    return this.#content.resources;
  }

  /** The registered resource templates in registration order. */
  get resourceTemplates(): readonly FusionResourceTemplate<Ctx>[] {
    return this.#content.resourceTemplates;
  }

  getTool(name: string): FusionTool<Ctx> | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  get size(): number {
    return this.#tools.size;
  }

  /**
   * Disables a registered tool at run time: it leaves `tools/list` and its calls are answered as unknown.
   * Every attached legacy session and modern listen stream gets `notifications/tools/list_changed`.
   */
  disable(name: string): this {
    this.#assertKnown(name);
    this.#switch.set(name, false);
    return this;
  }

  /** Enables a tool disabled with {@link disable} again (and announces the change the same way). */
  enable(name: string): this {
    this.#assertKnown(name);
    this.#switch.set(name, true);
    return this;
  }

  /** False while a tool is disabled. */
  isEnabled(name: string): boolean {
    return !this.#switch.isDisabled(name);
  }

  #assertKnown(name: string): void {
    if (!this.#tools.has(name)) {
      throw new DefinitionError(
        'TOOL_UNKNOWN',
        `No tool "${name}" is registered; enable() and disable() take the declared name of a registered tool (${[...this.#tools.keys()].slice(0, 10).join(', ')}).`,
        { name },
      );
    }
  }

  /**
   * The runtime for `options`: everything a server needs to serve this registry (compiled surfaces, call
   * paths, features, workflow runtime), built once per options object and reused by every attach with the
   * same object (the modern era attaches once per request). Registering anything starts afresh.
   */
  runtime(options: AttachOptions<Ctx> = EMPTY): FusionRuntime<Ctx> {
    let runtime = this.#runtimes.get(options);
    if (runtime === undefined) {
      const { prompts, resources, resourceTemplates, skills } = this.#content;
      runtime = FusionRuntime.build(
        { tools: this.tools, prompts, resources, resourceTemplates, skills, toolSwitch: this.#switch },
        options,
      );
      this.#runtimes.set(options, runtime);
    }
    return runtime;
  }

  /**
   * Installs `tools/list` and `tools/call` (and the prompt and resource methods when there are any) on an
   * SDK `McpServer` or `Server` (v2, or v1 for legacy deployments) and declares exactly those
   * capabilities. Call before `server.connect()`.
   */
  attachToServer(server: unknown, options: AttachOptions<Ctx> = EMPTY): Attachment {
    return attachRuntime(server, this.runtime(options));
  }
}

const EMPTY: AttachOptions<any> = Object.freeze({});

function toTools<Ctx>(source: ToolSource<Ctx>): readonly FusionTool<Ctx>[] {
  if (typeof (source as { toFusionTools?: unknown }).toFusionTools === 'function') {
    return (source as { toFusionTools(): readonly FusionTool<Ctx>[] }).toFusionTools();
  }
  if (typeof (source as FusionTool).run === 'function' && typeof (source as FusionTool).name === 'string')
    return [source as FusionTool<Ctx>];
  throw new DefinitionError(
    'TOOL_SOURCE',
    'register() takes a built tool, prompt or resource (the result of .handle()) or a grouped tool builder; did you forget to call .handle()?',
  );
}

function describeTool(tool: FusionTool): string {
  return tool.description === undefined ? '' : ` ("${tool.description.slice(0, 40)}")`;
}
