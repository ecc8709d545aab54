import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileUriTemplate } from '../../src/resources/compileUriTemplate.js';

describe('compileUriTemplate', () => {
  it('matches level-1 variables and decodes them', () => {
    const t = compileUriTemplate('test://template/{id}/data');
    expect(t.variables).toEqual(['id']);
    expect(t.match('test://template/123/data')).toEqual({ id: '123' });
    expect(t.match('test://template/a%20b/data')).toEqual({ id: 'a b' });
    expect(t.match('test://template/1/2/data')).toBeUndefined();
    expect(t.match('test://template//data')).toBeUndefined();
    expect(t.match('test://template/123/data/more')).toBeUndefined();
    expect(t.match('xtest://template/123/data')).toBeUndefined();
  });

  it('treats literal characters literally, including regex metacharacters', () => {
    const t = compileUriTemplate('app://search.v1/{q}?page={page}');
    expect(t.match('app://search.v1/cats?page=2')).toEqual({ q: 'cats', page: '2' });
    expect(t.match('app://searchXv1/cats?page=2')).toBeUndefined();
  });

  it('keeps a malformed escape as written', () => {
    expect(compileUriTemplate('a://{x}').match('a://%E0%A4%A')).toEqual({ x: '%E0%A4%A' });
  });

  it('round-trips: the expansion of any values matches back to them', () => {
    const t = compileUriTemplate('app://{org}/items/{id}.json');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (org, id) => {
        expect(t.match(t.expand({ org, id }))).toEqual({ org, id });
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what level 1 cannot express, saying how to fix it', () => {
    const errors = [
      'app://{+path}',
      'app://{a,b}',
      'app://{a}{b}',
      'app://{a}/{a}',
      'app://{a',
      'app://a}',
      'app://{}',
      'app://{__proto__}',
      'app://fixed',
      'app://{x:3}',
    ].map((t) => {
      try {
        compileUriTemplate(t);
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(errors).toMatchInlineSnapshot(`
      [
        "Resource template "app://{+path}" uses the operator "+" in {+path}; only level-1 {name} expressions are supported.",
        "Resource template "app://{a,b}" uses a modifier or a list in {a,b}; only single {name} expressions are supported.",
        "Resource template "app://{a}{b}" has two adjacent variables before {b}; put a literal such as "/" between them so that a URI splits one way only.",
        "Resource template "app://{a}/{a}" uses the variable {a} twice; give each variable its own name.",
        "Resource template "app://{a" has an unbalanced "{" or "}"; write each variable as {name}.",
        "Resource template "app://a}" has an unbalanced "{" or "}"; write each variable as {name}.",
        "Resource template "app://{}" has an invalid variable name {}; use letters, digits and "_".",
        "Resource template "app://{__proto__}" has an invalid variable name {__proto__}; use letters, digits and "_".",
        "Resource template "app://fixed" has no {variable}; register a fixed URI with f.resource() instead.",
        "Resource template "app://{x:3}" uses a modifier or a list in {x:3}; only single {name} expressions are supported.",
      ]
    `);
  });
});
