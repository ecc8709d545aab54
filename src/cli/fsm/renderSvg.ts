import { CliError } from '../CliError.js';

/** The part of `@viz-js/viz` the CLI uses; inject it to skip the lazy import. */
export interface VizModule {
  instance(): Promise<{ renderString(dot: string, options: { format: string }): string }>;
}

/**
 * Renders DOT to SVG in-process with Graphviz compiled to WebAssembly (`@viz-js/viz`, an optional
 * dependency imported only here, on first use).
 */
export async function renderSvg(dot: string, viz?: VizModule): Promise<string> {
  const mod = viz ?? (await loadViz());
  const instance = await mod.instance();
  try {
    return instance.renderString(dot, { format: 'svg' });
  } catch (error) {
    throw new CliError(
      'CLI_RENDER',
      `Graphviz could not render the diagram: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function loadViz(): Promise<VizModule> {
  try {
    return (await import('@viz-js/viz')) as VizModule;
  } catch {
    throw new CliError(
      'CLI_MISSING_VIZ',
      'Drawing SVG needs the optional package "@viz-js/viz"; run `npm install -D @viz-js/viz`, or print the Mermaid diagram without --out.',
      { package: '@viz-js/viz' },
    );
  }
}
