import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import type { AttachOptions } from '../registry/types.js';
import { CliError } from './CliError.js';
import { importModule } from './importModule.js';

/** Which exports hold the registry, its options and its workflow gate (`--registry`, `--options`, `--fsm`). */
export interface TargetSelectors {
  registry?: string | undefined;
  options?: string | undefined;
  fsm?: string | undefined;
}

/** A loaded module: the registry to look at and the attach options a server would use. */
export interface Target {
  readonly path: string;
  readonly registry: ToolRegistry;
  /** The module's options, with `fsm` filled in from a separately exported gate. */
  readonly options: AttachOptions<any>;
  readonly gate: StateMachineGate | undefined;
  /** What the user should know about loading the module (e.g. it started a server when imported); the commands print these on stderr. */
  readonly notes: readonly string[];
}

/**
 * Loads `path` and finds, by duck typing so that two copies of mcp-fusion still match:
 * the registry (`--registry`, else `registry`, else the default export, else the only registry exported);
 * the options (`--options`, else `options`, else the only export named `…Options`), an object or a
 * function of no arguments returning one; the gate (`--fsm`, else `options.fsm`, else `fsm`, else the only
 * gate exported). A module that starts its server when imported (the README's twenty lines) is read through
 * the registry and options it gave `startServer()`, which does not listen then.
 */
export async function loadTarget(path: string, cwd: string, selectors: TargetSelectors = {}): Promise<Target> {
  const { exports: mod, served, notes } = await importModule(path, cwd);
  const names = Object.keys(mod);
  const registry =
    pick(mod, path, 'registry', selectors.registry, isRegistry, () => ['registry', 'default']) ??
    (isRegistry(served?.registry) ? served.registry : undefined);
  if (registry === undefined) {
    throw new CliError(
      'CLI_NO_REGISTRY',
      `"${path}" exports no tool registry (exports: ${[...names].sort().join(', ') || 'none'}). Export it as \`export const registry = f.registry()…\` or as the default export, or name the export with --registry <name>.`,
      { path },
    );
  }
  const rawOptions =
    pick(
      mod,
      path,
      'options',
      selectors.options,
      isOptionsLike,
      () => ['options', ...unique(names.filter((n) => /options$/i.test(n) && n !== 'options'))],
      false,
    ) ?? served?.options;
  const options = resolveOptions(rawOptions, path, selectors.options);
  const gate =
    selectors.fsm !== undefined
      ? pick(mod, path, 'fsm', selectors.fsm, isStateMachineGate, () => [], false)
      : (options.fsm ??
        pick(mod, path, 'fsm', undefined, isStateMachineGate, () => [
          'fsm',
          ...unique(names.filter((n) => isStateMachineGate(mod[n]))),
        ]));
  return { path, registry, options: gate === undefined ? options : { ...options, fsm: gate }, gate, notes };
}

function pick<T>(
  mod: Record<string, unknown>,
  path: string,
  what: string,
  chosen: string | undefined,
  test: (v: unknown) => v is T,
  candidates: () => string[],
  onlyOne = true,
): T | undefined {
  if (chosen !== undefined) {
    if (!Object.hasOwn(mod, chosen))
      throw new CliError(
        'CLI_NO_EXPORT',
        `"${path}" has no export "${chosen}" (given with --${what}); it exports: ${Object.keys(mod).sort().join(', ') || 'nothing'}.`,
        { path, export: chosen },
      );
    const value = mod[chosen];
    if (!test(value))
      throw new CliError(
        'CLI_BAD_EXPORT',
        `Export "${chosen}" of "${path}" is not ${article(what)}; check the name given with --${what}.`,
        { path, export: chosen },
      );
    return value;
  }
  for (const name of candidates()) if (test(mod[name])) return mod[name];
  if (!onlyOne) return undefined;
  const found = Object.keys(mod).filter((n) => test(mod[n]));
  return found.length === 1 ? (mod[found[0]!] as T) : undefined;
}

function resolveOptions(raw: unknown, path: string, chosen: string | undefined): AttachOptions<any> {
  if (raw === undefined) return {};
  const value = typeof raw === 'function' ? (raw as () => unknown)() : raw;
  if (typeof value !== 'object' || value === null) {
    throw new CliError(
      'CLI_BAD_OPTIONS',
      `The options export${chosen === undefined ? '' : ` "${chosen}"`} of "${path}" must be an object or a function of no arguments returning one.`,
      { path },
    );
  }
  return value as AttachOptions<any>;
}

function isRegistry(value: unknown): value is ToolRegistry {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as ToolRegistry).tools) &&
    typeof (value as ToolRegistry).runtime === 'function'
  );
}

function isStateMachineGate(value: unknown): value is StateMachineGate {
  const gate = value as StateMachineGate | null;
  return (
    typeof gate === 'object' &&
    gate !== null &&
    typeof gate.visibleIn === 'function' &&
    typeof gate.config?.initial === 'string' &&
    gate.bindings instanceof Map
  );
}

function isOptionsLike(value: unknown): value is object {
  return (
    (typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      !isRegistry(value) &&
      !isStateMachineGate(value)) ||
    (typeof value === 'function' && (value as () => unknown).length === 0)
  );
}

function unique(names: string[]): string[] {
  return names.length === 1 ? names : [];
}

function article(what: string): string {
  return what === 'registry'
    ? 'a ToolRegistry'
    : what === 'fsm'
      ? 'a StateMachineGate (f.fsm(...))'
      : 'an options object or a function returning one';
}
