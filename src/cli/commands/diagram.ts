import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { analyzeTarget } from '../analyzeTarget.js';
import { CliError } from '../CliError.js';
import { displayPath } from '../displayPath.js';
import { loadCommandTarget, withTargetOptions, type CommandContext } from '../context.js';
import { fsmGraph, type FsmGraph } from '../../fsm/fsmGraph.js';
import { renderSvg } from '../fsm/renderSvg.js';
import { toDot } from '../fsm/toDot.js';
import { toMermaid } from '../fsm/toMermaid.js';

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
    .description(
      'draw the workflow FSM: each state with the tools visible in it, each transition with the tool that triggers it',
    )
    .option(
      '-o, --out <path>',
      'write the diagram instead of printing: a .svg, .mmd or .dot file, or a directory for <name>.mmd and <name>.svg',
    )
    .addOption(
      new Option('-f, --format <format>', 'what to print without --out').choices(['mermaid', 'dot']).default('mermaid'),
    )
    .option('--all-tools', 'list the tools visible in every state inside each state, not once in a note')
    .addHelpText(
      'after',
      '\nExamples:\n  mcp-fusion diagram src/registry.ts > workflow.mmd\n  mcp-fusion diagram src/registry.ts --out docs/diagrams\n  mcp-fusion diagram src/registry.ts --out workflow.svg\n',
    )
    .action(async (module: string, opts: DiagramOptions) => {
      const target = await loadCommandTarget(io, module, opts);
      const gate = target.gate;
      const { surface } = analyzeTarget(target);
      const display = (name: string): string => {
        const exposed = surface.exposedName.get(name) ?? name;
        return surface.routes.get(exposed)?.kind === 'flat' ? exposed : name;
      };
      const tools = surface.tools.map((t) => t.name);
      if (gate === undefined)
        io.stderr.write(
          `note: "${module}" has no workflow gate (f.fsm), so every tool is visible all the time: drawn as one state. Export a gate as \`fsm\` (or name it with --fsm <export>) to draw a workflow.\n`,
        );
      const graph = gate === undefined ? withoutWorkflow(tools.map(display)) : fsmGraph(gate, tools, display);
      const draw = { allTools: opts.allTools === true };
      if (opts.out === undefined) {
        io.stdout.write(opts.format === 'dot' ? toDot(graph, draw) : toMermaid(graph, draw));
        return;
      }
      const written = await writeDiagram(resolve(io.cwd, opts.out), (gate?.id ?? 'fsm').replace(/[^\w.-]+/g, '_'), {
        mermaid: toMermaid(graph, draw),
        dot: toDot(graph, draw),
      });
      for (const file of written.files) io.stdout.write(`wrote ${displayPath(io.cwd, file)}\n`);
      if (written.missingSvg !== undefined)
        io.stderr.write(
          `note: ${displayPath(io.cwd, written.missingSvg)} was not drawn: SVG needs the optional package "@viz-js/viz" (\`npm install -D @viz-js/viz\`); the Mermaid file renders on GitHub and at mermaid.live.\n`,
        );
    });
}

/**
 * Writes the diagram to `out`: a `.svg`, `.mmd`/`.mermaid` or `.dot`/`.gv` file, or else a directory that gets
 * `<base>.mmd` and `<base>.svg`. Without `@viz-js/viz` the SVG is skipped (`missingSvg`) and the Mermaid text
 * is written instead (beside a requested .svg file, with the .mmd extension).
 */
async function writeDiagram(
  out: string,
  base: string,
  text: { mermaid: string; dot: string },
): Promise<{ files: string[]; missingSvg?: string }> {
  const ext = extname(out).toLowerCase();
  const single = ['.svg', '.mmd', '.mermaid', '.dot', '.gv'].includes(ext);
  const wanted = single ? [out] : [join(out, `${base}.mmd`), join(out, `${base}.svg`)];
  await mkdir(dirname(wanted[0]!), { recursive: true });
  const files: string[] = [];
  let missingSvg: string | undefined;
  for (const file of wanted) {
    let content = file.endsWith('.svg') ? undefined : /\.(dot|gv)$/i.test(file) ? text.dot : text.mermaid;
    let target = file;
    if (content === undefined) {
      try {
        content = await renderSvg(text.dot);
      } catch (error) {
        if (!(error instanceof CliError && error.code === 'CLI_MISSING_VIZ')) throw error;
        missingSvg = file;
        if (!single) continue;
        [target, content] = [`${file.slice(0, -ext.length)}.mmd`, text.mermaid];
      }
    }
    await writeFile(target, content);
    files.push(target);
  }
  return missingSvg === undefined ? { files } : { files, missingSvg };
}

/** A registry without a workflow: one state, every tool in it. */
function withoutWorkflow(tools: readonly string[]): FsmGraph {
  return {
    id: undefined,
    states: [{ name: 'always', initial: true, final: false, tools }],
    transitions: [],
    everywhere: [],
  };
}
