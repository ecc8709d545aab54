import type { MarkedBlock } from './markedBlocks.js';

/** The process an MCP host starts for a `<!-- host: name -->` block of the README. */
export interface HostCommand {
  readonly host: string;
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

type ServerEntry = { command?: unknown; args?: unknown; env?: unknown };

/**
 * Pure: the command line a host block describes, placeholders (`${workspaceFolder}`,
 * `/absolute/path/to/mcp-fusion`) replaced by `checkout`. JSON blocks are host config files
 * (`mcpServers` or VS Code's `servers`, one entry); shell blocks are `claude mcp add <name> -- <command...>`
 * or `npx @modelcontextprotocol/inspector [-e K=V]... -- <command...>`.
 */
export function hostCommand(block: MarkedBlock, checkout: string): HostCommand {
  const fill = (text: string): string =>
    text.replaceAll('${workspaceFolder}', checkout).replaceAll('/absolute/path/to/mcp-fusion', checkout);
  if (block.lang === 'json') {
    const config = JSON.parse(block.code) as {
      mcpServers?: Record<string, ServerEntry>;
      servers?: Record<string, ServerEntry>;
    };
    const entries = Object.values(config.mcpServers ?? config.servers ?? {});
    if (entries.length !== 1)
      throw new Error(`host "${block.name}": expected one server entry, found ${entries.length}`);
    const entry = entries[0]!;
    if (typeof entry.command !== 'string' || !Array.isArray(entry.args))
      throw new Error(`host "${block.name}": the entry needs "command" and "args"`);
    return {
      host: block.name,
      command: fill(entry.command),
      args: (entry.args as string[]).map(fill),
      env: (entry.env ?? {}) as Record<string, string>,
    };
  }
  const words = block.code.trim().split(/\s+/);
  const dashes = words.indexOf('--');
  if (dashes === -1 || dashes === words.length - 1)
    throw new Error(`host "${block.name}": expected "<launcher> -- <command...>"`);
  const env: Record<string, string> = {};
  words.slice(0, dashes).forEach((word, i, before) => {
    if (word !== '-e') return;
    const [key, ...value] = (before[i + 1] ?? '').split('=');
    env[key!] = value.join('=');
  });
  const [command, ...args] = words.slice(dashes + 1).map(fill);
  return { host: block.name, command: command!, args, env };
}
