import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseParamAssignments, resolveParams } from '../../src/strategy/params.js';

const DEFAULTS = { fast: 10, slow: 30, label: 'x', short: false };

describe('strategy params', () => {
  it('coerces text overrides by the type of the default', () => {
    const { params, problems } = resolveParams(DEFAULTS, { fast: '5', label: 'trend', short: 'yes' }, undefined);

    expect(problems).toEqual([]);
    expect(params).toEqual({ fast: 5, slow: 30, label: 'trend', short: true });
  });

  it('keeps typed overrides from code as they are', () => {
    expect(resolveParams(DEFAULTS, { slow: 50 }, undefined).params).toMatchObject({ slow: 50 });
  });

  it('refuses unknown params, naming them and the known ones', () => {
    const { problems } = resolveParams(DEFAULTS, { fsat: '5', quantity: '1' }, undefined);

    expect(problems).toEqual(['unknown params fsat, quantity (known: fast, slow, label, short)']);
  });

  it('reports every bad value at once', () => {
    const { problems } = resolveParams(DEFAULTS, { fast: 'ten', short: 'maybe', slow: '' }, undefined);

    expect(problems).toEqual(['fast: "ten" is not a number', 'short: "maybe" is not true or false', 'slow: "" is not a number']);
  });

  it('refuses a value of the wrong type given from code', () => {
    const { problems } = resolveParams(DEFAULTS, { fast: true }, undefined);

    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^fast: /);
  });

  it('applies the strategy schema after coercion', () => {
    const schema = z.strictObject({ fast: z.number().int().positive(), slow: z.number(), label: z.string(), short: z.boolean() });

    expect(resolveParams(DEFAULTS, { fast: '-2' }, schema).problems).toEqual(['fast: Too small: expected number to be >0']);
  });

  it('parses key=value assignments and refuses ones without a key', () => {
    expect(parseParamAssignments(['fast=5', 'label=a=b'])).toEqual({ fast: '5', label: 'a=b' });
    expect(() => parseParamAssignments(['fast'])).toThrow(/--param "fast" must look like key=value/);
  });
});
