import { Command } from 'commander';
import { allPaths } from '../../fsm/stateValue.js';
import type { ToolAnnotations } from '../../protocol/types.js';
import { analyzeTarget, listFor, type ToolRow } from '../analyzeTarget.js';
import { loadCommandTarget, withTargetOptions, type CommandContext } from '../context.js';
import { formatTable } from '../formatTable.js';
import type { Target } from '../loadTarget.js';
import { skillMarkdown } from '../../skills/skillMarkdown.js';
import { workflowSkill } from '../../skills/workflowSkill.js';

interface InspectOptions {
  state?: string;
  scopes?: string;
  json?: boolean;
  registry?: string;
  options?: string;
  fsm?: string;
  skill?: boolean;
}

/** `mcp-fusion inspect <module>`: the tool surface as a table, or what `tools/list` returns in one state. */
export function inspectCommand({ io }: CommandContext): Command {
  return withTargetOptions(new Command('inspect'))
    .description('print the tool surface of a registry: annotations, cache directives, invalidations, FSM states')
    .option('-s, --state <state>', 'print exactly what tools/list returns to a session in this workflow state')
    .option(
      '--scopes <a,b>',
      'print exactly what tools/list returns to a principal whose token grants these scopes (combine with --state)',
    )
    .option(
      '--skill',
      'print the skills the server publishes (SEP-2640): the workflow’s generated SKILL.md, then f.skill() ones',
    )
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nExamples:\n  mcp-fusion inspect src/registry.ts\n  mcp-fusion inspect src/registry.ts --state payment --json\n  mcp-fusion inspect src/registry.ts --scopes notes:read,notes:write\n  mcp-fusion inspect src/registry.ts --skill\n',
    )
    .action(async (module: string, opts: InspectOptions) => {
      const target = await loadCommandTarget(io, module, opts);
      if (opts.skill === true) {
        const skills = skillsOf(target);
        if (skills.length === 0)
          io.stderr.write(
            `note: "${module}" publishes no skill: it has no workflow gate with tools bound to it (f.fsm and .bindState) and no f.skill().\n`,
          );
        io.stdout.write(
          opts.json === true ? `${JSON.stringify(skills, null, 2)}\n` : skills.map((s) => s.markdown).join('\n'),
        );
        return;
      }
      if (opts.state !== undefined || opts.scopes !== undefined) {
        const scopes = opts.scopes
          ?.split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0);
        const list = await listFor(target, { state: opts.state, scopes });
        io.stdout.write(
          opts.json === true
            ? `${JSON.stringify(list, null, 2)}\n`
            : stateTable(target, { state: opts.state, scopes }, list.tools),
        );
        return;
      }
      const { rows, warnings } = analyzeTarget(target);
      if (opts.json === true) {
        io.stdout.write(`${JSON.stringify({ module, fsm: fsmSummary(target), tools: rows, warnings }, null, 2)}\n`);
        return;
      }
      io.stdout.write(surfaceTable(target, rows));
      if (warnings.length > 0)
        io.stderr.write(
          `\n${warnings.length} startup warning${warnings.length === 1 ? '' : 's'}; \`mcp-fusion lint ${module}\` explains them.\n`,
        );
    });
}

/** Every skill a server of `target` publishes to a caller holding every scope, each as its whole SKILL.md. */
function skillsOf(target: Target): Array<{ name: string; markdown: string }> {
  const { surface } = analyzeTarget(target);
  const gate = target.gate;
  const generated =
    gate !== undefined && surface.tools.some((t) => t.fsm !== undefined) ? [workflowSkill(gate, surface)] : [];
  const own = target.registry.skills.map((s) => ({
    name: s.name,
    markdown: skillMarkdown(s.name, s.description, s.body),
  }));
  return [...generated.map(({ name, markdown }) => ({ name, markdown })), ...own];
}

function fsmSummary(target: Target): { id: string | null; initial: string; states: string[] } | null {
  const gate = target.gate;
  // Nested states are listed by their dotted paths (`payment.card`), parents first.
  return gate === undefined
    ? null
    : { id: gate.id ?? null, initial: gate.config.initial, states: allPaths(gate.config) };
}

function surfaceTable(target: Target, rows: readonly ToolRow[]): string {
  const fsm = fsmSummary(target);
  const head = `${target.path}: ${rows.length} tool${rows.length === 1 ? '' : 's'}${fsm === null ? ', no FSM' : `, FSM ${fsm.id === null ? '' : `"${fsm.id}" `}(initial "${fsm.initial}"; states ${fsm.states.join(', ')})`}\n\n`;
  const renamed = rows.some((r) => r.exposedAs !== r.name);
  const scoped = rows.some((r) => r.scopes.length > 0);
  const headers = [
    'name',
    ...(renamed ? ['exposed as'] : []),
    'kind',
    'annotations',
    'cache',
    'invalidates',
    'fsm states',
    'sends',
    ...(scoped ? ['scopes'] : []),
  ];
  const body = rows.map((r) => [
    r.name,
    ...(renamed ? [r.exposedAs] : []),
    r.kind,
    hints(r.annotations),
    r.cacheControl ?? '-',
    r.invalidates.join(', ') || '-',
    r.states === null ? (fsm === null ? '-' : '(all)') : r.states.join(', '),
    r.event ?? '-',
    ...(scoped ? [r.scopes.join(' ') || '-'] : []),
  ]);
  return head + formatTable(headers, body);
}

function stateTable(
  target: Target,
  view: { state?: string | undefined; scopes?: readonly string[] | undefined },
  tools: ReadonlyArray<Record<string, unknown>>,
): string {
  const gate = target.gate;
  const where =
    view.state === undefined ? '' : ` in state "${view.state}"${gate?.id === undefined ? '' : ` of FSM "${gate.id}"`}`;
  const who =
    view.scopes === undefined ? '' : ` for scopes ${view.scopes.length === 0 ? '(none)' : view.scopes.join(', ')}`;
  const head = `tools/list${who}${where}: ${tools.length} tool${tools.length === 1 ? '' : 's'}\n\n`;
  const body = tools.map((t) => [
    String(t.name),
    hints((t.annotations ?? {}) as ToolAnnotations),
    String(t.description ?? ''),
  ]);
  return head + formatTable(['name', 'annotations', 'description'], body);
}

/** The hints that are set: `readOnly`, `destructive`, `idempotent`, `openWorld`; `-` when none. */
function hints(annotations: ToolAnnotations): string {
  const set = (['readOnly', 'destructive', 'idempotent', 'openWorld'] as const).filter(
    (h) => annotations[`${h}Hint`] === true,
  );
  return set.join(', ') || '-';
}
