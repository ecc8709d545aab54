import { DefinitionError } from '../errors/FusionError.js';
import { BaseModel, type ModelOptions } from './BaseModel.js';
import type { GroupItem } from './GroupItem.js';
import type { Prompt } from './Prompt.js';
import type { Resource } from './Resource.js';
import type { Tool } from './Tool.js';
import { linkParent } from './_internal/membership.js';

/**
 * A node of the domain tree: one parent, child groups, and the tools, prompts and resources filed
 * under it. Its fully qualified name walks up the parents (`platform.users.management`).
 * @example
 * const platform = new Group('platform');
 * const users = new Group('users');
 * platform.addChildGroup(users);
 * users.getFullyQualifiedName(); // 'platform.users'
 * @see docs/prompts-and-resources.md
 */
export class Group extends BaseModel {
  #parent: Group | undefined;
  readonly #groups: Group[] = [];
  readonly #tools: Tool[] = [];
  readonly #prompts: Prompt[] = [];
  readonly #resources: Resource[] = [];

  constructor(name: string, options?: ModelOptions) {
    super(name, options);
  }

  /** The group this one is a child of; undefined for a root. */
  get parent(): Group | undefined {
    return this.#parent;
  }

  get childGroups(): readonly Group[] {
    return this.#groups;
  }

  get childTools(): readonly Tool[] {
    return this.#tools;
  }

  get childPrompts(): readonly Prompt[] {
    return this.#prompts;
  }

  get childResources(): readonly Resource[] {
    return this.#resources;
  }

  /**
   * Makes `child` a child group; false when it already is one. Throws when `child` has another parent
   * or when the link would make the tree loop (`child` is this group or one of its ancestors).
   */
  addChildGroup(child: Group): boolean {
    if (child.#parent === this) return false;
    if (child === this) {
      throw new DefinitionError(
        'GROUP_CYCLE',
        `Group "${this.getFullyQualifiedName()}" cannot contain itself; add a different group.`,
        { group: child.name, parent: this.name },
      );
    }
    if (this.#ancestors().includes(child)) {
      throw new DefinitionError(
        'GROUP_CYCLE',
        `Group "${child.getFullyQualifiedName()}" cannot become a child of "${this.getFullyQualifiedName()}": it is one of its ancestors, so the tree would loop. Add a different group, or move "${this.name}" out from under "${child.name}" first.`,
        { group: child.name, parent: this.name },
      );
    }
    if (child.#parent !== undefined) {
      throw new DefinitionError(
        'GROUP_PARENT',
        `Group "${child.name}" already belongs to "${child.#parent.getFullyQualifiedName()}"; a group has one parent. Call removeChildGroup() on "${child.#parent.name}" before adding it under "${this.getFullyQualifiedName()}".`,
        { group: child.name, parent: child.#parent.name },
      );
    }
    child.#parent = this;
    this.#groups.push(child);
    return true;
  }

  /** Detaches a child group, which becomes a root; false when it is not a child of this group. */
  removeChildGroup(child: Group): boolean {
    const at = this.#groups.indexOf(child);
    if (at === -1) return false;
    this.#groups.splice(at, 1);
    child.#parent = undefined;
    return true;
  }

  addChildTool(tool: Tool): boolean {
    return this.#add(this.#tools, tool);
  }

  removeChildTool(tool: Tool): boolean {
    return this.#remove(this.#tools, tool);
  }

  addChildPrompt(prompt: Prompt): boolean {
    return this.#add(this.#prompts, prompt);
  }

  removeChildPrompt(prompt: Prompt): boolean {
    return this.#remove(this.#prompts, prompt);
  }

  addChildResource(resource: Resource): boolean {
    return this.#add(this.#resources, resource);
  }

  removeChildResource(resource: Resource): boolean {
    return this.#remove(this.#resources, resource);
  }

  /** Files any leaf under the list of its kind; false when it is already there. */
  addChild(item: GroupItem): boolean {
    return this.#add(this.#listOf(item), item);
  }

  /** Removes any leaf from the list of its kind; false when it was not there. */
  removeChild(item: GroupItem): boolean {
    return this.#remove(this.#listOf(item), item);
  }

  isRoot(): boolean {
    return this.#parent === undefined;
  }

  /** The top of this group's tree (itself for a root). */
  getRoot(): Group {
    return this.#ancestors().at(-1) ?? this;
  }

  /** The names from the root down to this group, joined with this group's separator. */
  getFullyQualifiedName(): string {
    return [
      ...this.#ancestors()
        .reverse()
        .map((g) => g.name),
      this.name,
    ].join(this.separator);
  }

  /** Parent first, root last. */
  #ancestors(): Group[] {
    const out: Group[] = [];
    for (let node = this.#parent; node !== undefined; node = node.#parent) out.push(node);
    return out;
  }

  #listOf(item: GroupItem): GroupItem[] {
    switch (item.kind) {
      case 'tool':
        return this.#tools;
      case 'prompt':
        return this.#prompts;
      case 'resource':
        return this.#resources;
    }
  }

  #add(list: GroupItem[], item: GroupItem): boolean {
    if (list.includes(item)) return false;
    list.push(item);
    item[linkParent](this, true);
    return true;
  }

  #remove(list: GroupItem[], item: GroupItem): boolean {
    const at = list.indexOf(item);
    if (at === -1) return false;
    list.splice(at, 1);
    item[linkParent](this, false);
    return true;
  }
}
