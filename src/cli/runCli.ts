import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './CliError.js';
import { createCommand } from './commands/create.js';
import { devCommand } from './commands/dev.js';
import { diagramCommand } from './commands/diagram.js';
import { inspectCommand } from './commands/inspect.js';
import { lintCommand } from './commands/lint.js';
import type { CommandContext } from './context.js';
import { packageInfo } from './create/packageInfo.js';
import type { CliIo } from './types.js';

/**
 * Runs the `mcp-fusion` command line with `argv` (without `node` and the script) and resolves to the exit
 * code. Nothing is written to the console directly and the process is never exited, so tests run it in-process.
 * @see docs/cli.md
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code: number = EXIT.ok;
  const context: CommandContext = { io, exit: (c) => (code = Math.max(code, c)) };
  const program = new Command('mcp-fusion')
    .description('Inspect, draw, lint, scaffold and watch (dev console) mcp-fusion servers.')
    .version(packageInfo().version, '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', '\nDocs: https://github.com/mcp-fusion/mcp-fusion/blob/main/docs/cli.md');
  for (const make of [createCommand, inspectCommand, diagramCommand, lintCommand, devCommand]) {
    const command = make(context);
    command.copyInheritedSettings(program);
    program.addCommand(command);
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.failed;
    if (error instanceof CliError) {
      io.stderr.write(`error: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.failed;
  }
}
