import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import type { FusionTool } from '../protocol/types.js';
import { ScopeFilter } from '../auth/ScopeFilter.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { Surface } from '../surface/compileSurface.js';
import { narrowSurface } from '../surface/narrowSurface.js';
import type { ToolSwitch } from '../surface/ToolSwitch.js';
import { skillDirectories, type DirectoryChild } from './skillDirectories.js';
import { skillMarkdown } from './skillMarkdown.js';
import type { FusionSkill } from './types.js';
import { workflowSkill } from './workflowSkill.js';

/** Where every skill lives: `skill://<name>/SKILL.md` and its other files beside it. */
export const SKILL_BASE = 'skill://';

/** One skill as a caller sees it: its files (`SKILL.md` first) and, once computed, its `skills/list` entry. */
export interface ServedSkill {
  readonly name: string;
  readonly description: string;
  /** `skill://<name>/SKILL.md`. */
  readonly uri: string;
  /** Every file by path under the skill's folder, `SKILL.md` included. */
  readonly files: Readonly<Record<string, string>>;
  /** The entry `skills/list` and `skills/get` carry (digests and sizes of every file), computed once. */
  entry(): Promise<Skill>;
}

/** The skills of one caller's scope view: the skills, their files by URI, their directories by URI. */
interface SkillView {
  readonly skills: readonly ServedSkill[];
  readonly files: ReadonlyMap<string, string>;
  /** Each skill's root (`skill://<name>`) and every folder below it, with its direct children. */
  readonly dirs: ReadonlyMap<string, readonly DirectoryChild[]>;
}

/**
 * The skills a runtime serves: the generated skill of its workflow (when a gate has tools bound on the
 * surface) and the registry's own `f.skill()` skills. What a caller sees follows the tools' rules: a
 * hand-written skill needs its `requireScopes`, and the workflow's skill exists for a caller only when
 * it may use at least one of the workflow's tools, and names only those. A tool disabled at run time
 * (`registry.disable()`) is named by no skill until it is enabled again. Built once per distinct set of
 * relevant scopes and per state of the registry's switch, as tool lists are.
 * @see docs/skills.md
 */
export class SkillSet {
  readonly #gate: StateMachineGate | undefined;
  readonly #surface: Surface;
  readonly #own: readonly FusionSkill[];
  readonly #switch: ToolSwitch | undefined;
  /** The switch version the cached views below were built at. */
  #version = 0;
  #scopes: ScopeFilter<SkillView>;
  /** The one view when no item requires a scope; built on first use, not with the runtime. */
  #open: SkillView | undefined;
  #everything: SkillView | undefined;

  constructor(
    surface: Surface,
    gate: StateMachineGate | undefined,
    own: readonly FusionSkill[],
    toolSwitch?: ToolSwitch,
  ) {
    this.#surface = surface;
    this.#gate = gate !== undefined && surface.tools.some((t) => t.fsm !== undefined) ? gate : undefined;
    this.#own = own;
    this.#switch = toolSwitch;
    this.#version = toolSwitch?.version ?? 0;
    this.#scopes = new ScopeFilter([...surface.tools, ...own]);
  }

  /** True when some caller may see a skill (the capability is declared only then). */
  get any(): boolean {
    return this.#gate !== undefined || this.#own.length > 0;
  }

  /** The skills a caller holding `granted` scopes sees, in order: the workflow's first. */
  visible(granted: readonly string[]): readonly ServedSkill[] {
    return this.#view(granted).skills;
  }

  /** Every skill with every tool named, as an operator sees them (the dev console, `mcp-fusion inspect`). */
  all(): readonly ServedSkill[] {
    this.#refresh();
    return (this.#everything ??= this.#build(() => true)).skills;
  }

  /** The text of the skill file at `uri` for that caller; undefined when it sees none there. */
  read(uri: string, granted: readonly string[]): string | undefined {
    return this.#view(granted).files.get(uri);
  }

  /** The direct children of the skill directory at `uri` for that caller; undefined when it sees none there. */
  readDirectory(uri: string, granted: readonly string[]): readonly DirectoryChild[] | undefined {
    return this.#view(granted).dirs.get(uri);
  }

  /**
   * Hears every run-time switch of a tool that changes what some skill says (a disabled workflow tool leaves
   * its skill, an enabled one comes back); returns unsubscribe. The runtime turns it into
   * `notifications/resources/list_changed`, as the SDK's own skill catalog announces a change.
   */
  onChange(listener: () => void): () => void {
    if (this.#switch === undefined || this.#gate === undefined) return () => {};
    let before = this.#fingerprint();
    return this.#switch.onChange(() => {
      const after = this.#fingerprint();
      if (after === before) return;
      before = after;
      listener();
    });
  }

  #fingerprint(): string {
    return JSON.stringify(this.all().map((s) => [s.name, s.files]));
  }

  /** Drops the views built before the last switch of a tool. */
  #refresh(): void {
    const version = this.#switch?.version ?? 0;
    if (version === this.#version) return;
    this.#version = version;
    this.#scopes = new ScopeFilter([...this.#surface.tools, ...this.#own]);
    this.#open = this.#everything = undefined;
  }

  #view(granted: readonly string[]): SkillView {
    this.#refresh();
    if (this.#scopes.active) return this.#scopes.view(granted, (allowed) => this.#build(allowed));
    return (this.#open ??= this.#build(() => true));
  }

  #build(allowed: (item: { readonly requiredScopes?: readonly string[] | undefined }) => boolean): SkillView {
    const skills: ServedSkill[] = [];
    if (this.#gate !== undefined) {
      const enabled = (tool: FusionTool): boolean => allowed(tool) && this.#switch?.isDisabled(tool.name) !== true;
      const surface = narrowSurface(this.#surface, enabled);
      if (surface.tools.some((t) => t.fsm !== undefined)) {
        const made = workflowSkill(this.#gate, surface);
        skills.push(served(made.name, made.description, { 'SKILL.md': made.markdown }));
      }
    }
    for (const skill of this.#own) {
      if (!allowed(skill)) continue;
      const main = skillMarkdown(skill.name, skill.description, skill.body);
      skills.push(served(skill.name, skill.description, { 'SKILL.md': main, ...skill.files }));
    }
    const files = new Map<string, string>();
    for (const skill of skills)
      for (const [path, text] of Object.entries(skill.files)) files.set(`${SKILL_BASE}${skill.name}/${path}`, text);
    const dirs = skillDirectories(
      skills.map((s) => `${SKILL_BASE}${s.name}`),
      files,
    );
    return { skills, files, dirs };
  }
}

function served(name: string, description: string, files: Record<string, string>): ServedSkill {
  let entry: Promise<Skill> | undefined;
  return {
    name,
    description,
    uri: `${SKILL_BASE}${name}/SKILL.md`,
    files: Object.freeze(files),
    // The SDK's extension builds the listed entry (digests, sizes), loaded on the first skills/list: the
    // registry's import graph stays free of the SDK.
    entry: () =>
      (entry ??= import('@modelcontextprotocol/server/ext/skills').then(({ skillEntry }) => skillEntry(name, files))),
  };
}
