import { DefinitionError } from '../errors/FusionError.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Throws unless `name` follows the MCP tool-name rule (1–128 chars of `A-Z a-z 0-9 _ - .`). */
export function validateToolName(name: unknown): asserts name is string {
  if (typeof name === 'string' && TOOL_NAME.test(name)) return;
  const shown = typeof name === 'string' ? `"${name}"` : String(name);
  throw new DefinitionError(
    'TOOL_NAME',
    `Tool name ${shown} is invalid: MCP tool names are 1–128 characters of A-Z, a-z, 0-9, "_", "-" and "."; ` +
      `rename it (for example "${typeof name === 'string' ? suggest(name) : 'sprints.list'}").`,
    { name },
  );
}

function suggest(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 128);
  return cleaned.length > 0 ? cleaned : 'tool';
}
