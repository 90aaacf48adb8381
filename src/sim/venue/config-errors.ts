// Turns a zod failure on one of the venue's configs into one InvalidInputError that lists every problem
// with its path, so a user fixes a config in one pass.
import type { z } from 'zod';
import { InvalidInputError } from '../../domain/errors.js';

export function parseStrict<T extends z.ZodType>(schema: T, input: unknown, label: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  const first = result.error.issues[0]?.path.map(String).join('.');
  throw new InvalidInputError(`${label}: ${problems.join('; ')}`, first === undefined || first === '' ? label : `${label}.${first}`, {
    problems,
  });
}
