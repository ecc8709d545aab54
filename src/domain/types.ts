/** An icon a client may show next to a tool, prompt or resource (MCP `Icon`). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Hints about a resource for the client (MCP `Annotations`). */
export interface ResourceAnnotations {
  audience?: Array<'user' | 'assistant'>;
  /** 0 (least important) to 1 (most important). */
  priority?: number;
  /** ISO 8601 date-time of the last change. */
  lastModified?: string;
}

/** One tool as `tools/list` shows it (MCP `Tool`, plain object). */
export interface WireTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** 2025-11-25: whether the tool runs as a task (`optional`, `required`); absent means `forbidden`. */
  execution?: { taskSupport: 'optional' | 'required' };
}

/** One argument of a prompt as `prompts/list` shows it (MCP `PromptArgument`). */
export interface WirePromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** One prompt as `prompts/list` shows it (MCP `Prompt`). */
export interface WirePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: WirePromptArgument[];
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** The optional listed fields shared by resources and resource templates. */
export interface ListedMetadata {
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ResourceAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** One resource as `resources/list` shows it (MCP `Resource`). */
export interface WireResource extends ListedMetadata {
  uri: string;
  name: string;
  size?: number;
}

/** One resource template as `resources/templates/list` shows it (MCP `ResourceTemplate`). */
export interface WireResourceTemplate extends ListedMetadata {
  uriTemplate: string;
  name: string;
}
