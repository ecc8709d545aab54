import type { Command } from 'commander';
import { loadTarget, type Target, type TargetSelectors } from './loadTarget.js';
import type { CliIo } from './types.js';

/** What every command receives: the outside world, and where to put its exit code. */
export interface CommandContext {
  readonly io: CliIo;
  exit(code: number): void;
}

/** The options shared by the commands that load a registry module. */
export function withTargetOptions(command: Command): Command {
  return command
    .argument('<module>', 'file exporting the registry (TypeScript or JavaScript), e.g. src/registry.ts')
    .option('--registry <export>', 'export holding the registry (default: `registry`, then the default export)')
    .option(
      '--options <export>',
      'export holding the attach options, an object or a function returning one (default: `options` or the only `…Options` export)',
    )
    .option(
      '--fsm <export>',
      'export holding the workflow gate (default: options.fsm, `fsm`, or the only gate exported)',
    );
}

/** The `--registry/--options/--fsm` values of a parsed command. */
export function selectorsOf(opts: { registry?: string; options?: string; fsm?: string }): TargetSelectors {
  return { registry: opts.registry, options: opts.options, fsm: opts.fsm };
}

/** Loads the module a command names (relative to the working directory) and prints the load's notes on stderr. */
export async function loadCommandTarget(
  io: CliIo,
  module: string,
  opts: { registry?: string; options?: string; fsm?: string },
): Promise<Target> {
  const target = await loadTarget(module, io.cwd, selectorsOf(opts));
  for (const note of target.notes) io.stderr.write(`note: ${note}\n`);
  return target;
}
