import { describe, expect, it } from 'vitest';
import { ConverterBase } from '../../src/domain/ConverterBase.js';

class NumberText extends ConverterBase<number, string> {
  convertFrom(source: number): string | null {
    return Number.isFinite(source) ? String(source) : null;
  }
  convertTo(target: string): number | undefined {
    const n = Number(target);
    return Number.isNaN(n) ? undefined : n;
  }
}

describe('ConverterBase', () => {
  it('converts batches both ways in order, dropping null inputs and null results', () => {
    const converter = new NumberText();
    expect(converter.convertFromBatch([1, null, Infinity, 2, undefined])).toEqual(['1', '2']);
    expect(converter.convertToBatch(['3', 'x', null, '4'])).toEqual([3, 4]);
    expect(converter.convertFromBatch(new Set([5]))).toEqual(['5']);
    expect(converter.convertFromBatch([])).toEqual([]);
  });
});
