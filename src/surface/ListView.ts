import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import { stateKey } from '../fsm/stateValue.js';
import type { FsmStateValue } from '../fsm/types.js';
import type { ToolSwitch } from './ToolSwitch.js';
import type { Surface, WireTool } from './compileSurface.js';
import type { ToolListResult } from './types.js';

/**
 * The frozen `tools/list` results of one surface (the whole registry, or what one scope set may see):
 * the legacy list, the modern list, and the legacy list of each workflow state, built on first use and
 * rebuilt only when tools are enabled or disabled at run time.
 */
export class ListView {
  readonly surface: Surface;
  readonly #listedAll: readonly WireTool[];
  readonly #modernAll: readonly WireTool[];
  readonly #freeze: (tools: readonly WireTool[], modern: boolean) => ToolListResult;
  readonly #switch: ToolSwitch;
  #applied = -1;
  #listed: readonly WireTool[] = [];
  #legacy!: ToolListResult;
  #modern!: ToolListResult;
  readonly #byState = new Map<string, ToolListResult>();

  constructor(
    surface: Surface,
    lists: { listed: readonly WireTool[]; modern: readonly WireTool[] },
    toolSwitch: ToolSwitch,
    freeze: (tools: readonly WireTool[], modern: boolean) => ToolListResult,
  ) {
    this.surface = surface;
    this.#listedAll = lists.listed;
    this.#modernAll = lists.modern;
    this.#switch = toolSwitch;
    this.#freeze = freeze;
    this.#refresh();
  }

  /** The legacy wire tools now enabled. */
  get listed(): readonly WireTool[] {
    this.#refresh();
    return this.#listed;
  }

  /** The legacy `tools/list` result (no workflow gate). */
  get legacy(): ToolListResult {
    this.#refresh();
    return this.#legacy;
  }

  /** The modern `tools/list` result (every tool, with `ttlMs` and `cacheScope`). */
  get modern(): ToolListResult {
    this.#refresh();
    return this.#modern;
  }

  /** The legacy list in one workflow state: tools (or grouped tools with an action) allowed in `state`. */
  inState(state: FsmStateValue, gate: StateMachineGate): ToolListResult {
    this.#refresh();
    let list = this.#byState.get(stateKey(state));
    if (list === undefined) {
      const tools = this.#listed.filter((w) => {
        const route = this.surface.routes.get(w.name);
        if (route === undefined) return true;
        if (route.kind === 'flat') return gate.isAllowedIn(state, route.tool.name);
        for (const t of route.actions.values()) if (gate.isAllowedIn(state, t.name)) return true;
        return false;
      });
      list = this.#freeze(tools, false);
      this.#byState.set(stateKey(state), list);
    }
    return list;
  }

  /** Rebuilds the frozen lists after tools were enabled or disabled at run time (an integer compare otherwise). */
  #refresh(): void {
    if (this.#applied === this.#switch.version) return;
    this.#applied = this.#switch.version;
    const enabled = (wire: WireTool): boolean => {
      const route = this.surface.routes.get(wire.name);
      if (route === undefined) return true;
      if (route.kind === 'flat') return !this.#switch.isDisabled(route.tool.name);
      for (const t of route.actions.values()) if (!this.#switch.isDisabled(t.name)) return true;
      return false;
    };
    this.#listed = this.#listedAll.filter(enabled);
    this.#legacy = this.#freeze(this.#listed, false);
    this.#modern = this.#freeze(this.#modernAll.filter(enabled), true);
    this.#byState.clear();
  }
}
