import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { analyzeTarget } from '../analyzeTarget.js';
import { CliError } from '../CliError.js';
import { displayPath } from '../displayPath.js';
import { selectorsOf, withTargetOptions, type CommandContext } from '../context.js';
import { fsmGraph } from '../fsm/fsmGraph.js';
import { renderSvg } from '../fsm/renderSvg.js';
import { toDot } from '../fsm/toDot.js';
import { toMermaid } from '../fsm/toMermaid.js';
import { loadTarget } from '../loadTarget.js';

interface DiagramOptions {
  out?: string;
  format: 'mermaid' | 'dot';
  allTools?: boolean;
  registry?: string;
  options?: string;
  fsm?: string;
}

/** `mcp-fusion diagram <module>`: the FSM with the tools visible in each state, as Mermaid and SVG. */
export function diagramCommand({ io }: CommandContext): Command {
  return withTargetOptions(new Command('diagram'))
    .description('draw the workflow FSM: each state with the tools visible in it, each transition with the tool that triggers it')
    .option('-o, --out <dir>', 'write <name>.mmd (Mermaid) and <name>.svg (Graphviz) into this directory instead of printing')
    .addOption(new Option('-f, --format <format>', 'what to print without --out').choices(['mermaid', 'dot']).default('mermaid'))
    .option('--all-tools', 'list the tools visible in every state inside each state, not once in a note')
    .addHelpText('after', '\nExamples:\n  mcp-fusion diagram src/registry.ts > workflow.mmd\n  mcp-fusion diagram src/registry.ts --out docs/diagrams\n')
    .action(async (module: string, opts: DiagramOptions) => {
      const target = await loadTarget(module, io.cwd, selectorsOf(opts));
      const gate = target.gate;
      if (gate === undefined) {
        throw new CliError('CLI_NO_FSM', `"${module}" has no workflow gate to draw. Export the gate as \`fsm\` (or put it in the options), or name it with --fsm <export>.`, { path: module });
      }
      const { surface } = analyzeTarget(target);
      const display = (name: string): string => {
        const exposed = surface.exposedName.get(name) ?? name;
        return surface.routes.get(exposed)?.kind === 'flat' ? exposed : name;
      };
      const graph = fsmGraph(gate, surface.tools.map((t) => t.name), display);
      const draw = { allTools: opts.allTools === true };
      if (opts.out === undefined) {
        io.stdout.write(opts.format === 'dot' ? toDot(graph, draw) : toMermaid(graph, draw));
        return;
      }
      const dir = resolve(io.cwd, opts.out);
      const base = (gate.id ?? 'fsm').replace(/[^\w.-]+/g, '_');
      const svg = await renderSvg(toDot(graph, draw));
      await mkdir(dir, { recursive: true });
      const files = [join(dir, `${base}.mmd`), join(dir, `${base}.svg`)];
      await writeFile(files[0]!, toMermaid(graph, draw));
      await writeFile(files[1]!, svg);
      for (const file of files) io.stdout.write(`wrote ${displayPath(io.cwd, file)}\n`);
    });
}
