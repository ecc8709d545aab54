import { Command } from 'commander';
import { analyzeTarget } from '../analyzeTarget.js';
import { CliError, EXIT } from '../CliError.js';
import { loadCommandTarget, withTargetOptions, type CommandContext } from '../context.js';
import { fsmGraph } from '../../fsm/fsmGraph.js';
import type { Target } from '../loadTarget.js';

interface LintOptions {
  json?: boolean;
  strict?: boolean;
  registry?: string;
  options?: string;
  fsm?: string;
}

/** One finding: `error` for what a server reports at startup, `warning` for the lint-only checks. */
export interface Problem {
  severity: 'error' | 'warning';
  message: string;
}

/**
 * `mcp-fusion lint <module>`: the startup checks a server runs (policy overlaps, patterns matching no
 * tool, unreachable FSM states, events no state handles) plus configuration errors, as errors; transitions
 * no tool can trigger, as warnings. Exits 1 on any error (and on warnings with --strict).
 */
export function lintCommand({ io, exit }: CommandContext): Command {
  return withTargetOptions(new Command('lint'))
    .description('run the startup checks of a registry and exit non-zero on problems (for CI)')
    .option('--json', 'machine-readable output')
    .option('--strict', 'fail on warnings too')
    .addHelpText(
      'after',
      '\nExit codes: 0 no errors, 1 problems found, 2 the module could not be checked.\n\nExample:\n  mcp-fusion lint src/registry.ts\n',
    )
    .action(async (module: string, opts: LintOptions) => {
      const target = await loadCommandTarget(io, module, opts);
      const problems = collectProblems(target);
      const errors = problems.filter((p) => p.severity === 'error').length;
      const warnings = problems.length - errors;
      if (opts.json === true) io.stdout.write(`${JSON.stringify({ module, errors, warnings, problems }, null, 2)}\n`);
      else io.stdout.write(report(module, problems, errors, warnings));
      if (errors > 0 || (opts.strict === true && warnings > 0)) exit(EXIT.findings);
    });
}

/** Every problem of a loaded target, errors first. */
export function collectProblems(target: Target): Problem[] {
  let analysis;
  try {
    analysis = analyzeTarget(target);
  } catch (error) {
    if (error instanceof CliError && error.code === 'CLI_CONFIG')
      return [{ severity: 'error', message: error.message }];
    throw error;
  }
  const problems: Problem[] = analysis.warnings.map((message) => ({ severity: 'error', message }));
  if (target.gate !== undefined) {
    const graph = fsmGraph(
      target.gate,
      analysis.surface.tools.map((t) => t.name),
    );
    const machine = target.gate.id === undefined ? 'the FSM' : `FSM "${target.gate.id}"`;
    for (const t of graph.transitions) {
      if (t.tools.length === 0) {
        problems.push({
          severity: 'warning',
          message: `Transition "${t.from}" → "${t.to}" of ${machine} needs event "${t.event}", which no tool visible in "${t.from}" sends; bind a tool with .bindState(["${t.from}"], "${t.event}") or remove the transition.`,
        });
      }
    }
  }
  return problems;
}

function report(module: string, problems: readonly Problem[], errors: number, warnings: number): string {
  if (problems.length === 0) return `✔ ${module}: no problems\n`;
  const lines = problems.map((p) => `  ${p.severity === 'error' ? '✖ error  ' : '⚠ warning'}  ${p.message}`);
  return `${module}\n${lines.join('\n')}\n\n${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`;
}
