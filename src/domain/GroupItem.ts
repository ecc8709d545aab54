import { BaseModel, type ModelOptions } from './BaseModel.js';
import type { Group } from './Group.js';
import { linkParent } from './_internal/membership.js';

/**
 * A leaf of the domain tree — a {@link Tool}, {@link Prompt} or {@link Resource} — that may belong to
 * several groups at once (a search tool in both `user-facing` and `admin`).
 * @see docs/prompts-and-resources.md
 */
export abstract class GroupItem extends BaseModel {
  /** Which child list of a {@link Group} holds this item. */
  abstract readonly kind: 'tool' | 'prompt' | 'resource';
  readonly #parents: Group[] = [];

  protected constructor(name: string, options?: ModelOptions) {
    super(name, options);
  }

  /** The groups holding this item, in the order it joined them. */
  get parentGroups(): readonly Group[] {
    return this.#parents;
  }

  /** Joins `group` (same as `group.addChild(item)`); false when already a member. */
  addParentGroup(group: Group): boolean {
    return group.addChild(this);
  }

  /** Leaves `group` (same as `group.removeChild(item)`); false when not a member. */
  removeParentGroup(group: Group): boolean {
    return group.removeChild(this);
  }

  /** The distinct roots of every tree this item belongs to, in the order of its parents. */
  getParentGroupRoots(): Group[] {
    return [...new Set(this.#parents.map((g) => g.getRoot()))];
  }

  /** The name under the first parent group (`platform.users.create`), or the bare name without one. */
  getFullyQualifiedName(): string {
    const first = this.#parents[0];
    return first === undefined ? this.name : `${first.getFullyQualifiedName()}${this.separator}${this.name}`;
  }

  /** One qualified name per parent group, in the order of {@link parentGroups}. */
  getFullyQualifiedNames(): string[] {
    if (this.#parents.length === 0) return [this.name];
    return this.#parents.map((g) => `${g.getFullyQualifiedName()}${this.separator}${this.name}`);
  }

  /** @internal called by {@link Group} so that both sides of the link change together. */
  [linkParent](group: Group, linked: boolean): void {
    const at = this.#parents.indexOf(group);
    if (linked && at === -1) this.#parents.push(group);
    else if (!linked && at !== -1) this.#parents.splice(at, 1);
  }
}
