/**
 * Two-way conversion between a source type (a domain model) and a target type (its wire shape).
 * Subclasses convert one item each way; the batch methods skip null and undefined entries, in the input
 * and in what the single-item methods return, so a converter can decline an item by returning null.
 * @example
 * const wire = new ToolConverter().convertFromBatch(group.childTools); // Tool[] → WireTool[]
 * @see docs/prompts-and-resources.md
 */
export abstract class ConverterBase<TSource, TTarget> {
  /** One source item to its target form, or null to leave it out. */
  abstract convertFrom(source: TSource): TTarget | null | undefined;

  /** One target item back to its source form, or null to leave it out. */
  abstract convertTo(target: TTarget): TSource | null | undefined;

  /** Source items to targets, in order, without nulls. */
  convertFromBatch(sources: Iterable<TSource | null | undefined>): TTarget[] {
    const out: TTarget[] = [];
    for (const source of sources) {
      if (source === null || source === undefined) continue;
      const target = this.convertFrom(source);
      if (target !== null && target !== undefined) out.push(target);
    }
    return out;
  }

  /** Target items back to sources, in order, without nulls. */
  convertToBatch(targets: Iterable<TTarget | null | undefined>): TSource[] {
    const out: TSource[] = [];
    for (const target of targets) {
      if (target === null || target === undefined) continue;
      const source = this.convertTo(target);
      if (source !== null && source !== undefined) out.push(source);
    }
    return out;
  }
}
