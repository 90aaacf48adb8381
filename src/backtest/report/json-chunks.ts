// A JSON document in pieces: the text JSON.stringify(value, null, 2) gives, without ever holding it whole.
// A long run's result lists hundreds of thousands of fills and trades; writing them a piece at a time keeps
// the peak memory of a run at its result, not its result plus its text twice over (the string, the bytes).

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function indented(text: string, pad: string): string {
  return text.includes('\n') ? text.replaceAll('\n', `\n${pad}`) : text;
}

/**
 * The pieces of JSON.stringify(document, null, 2) + "\n", for a plain object whose arrays may be long: each
 * element of a top-level array is one piece.
 */
export function* jsonChunks(document: Readonly<Record<string, unknown>>): Generator<string> {
  const keys = Object.keys(document).filter((key) => !omitted(document[key]));
  if (keys.length === 0) {
    yield '{}\n';
    return;
  }
  yield '{\n';
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const value = document[key];
    const name = `  ${JSON.stringify(key)}: `;
    const end = index + 1 < keys.length ? ',\n' : '\n';
    if (!Array.isArray(value) || value.length === 0) {
      yield `${name}${indented(JSON.stringify(value, null, 2), '  ')}${end}`;
      continue;
    }
    yield `${name}[\n`;
    for (let element = 0; element < value.length; element += 1) {
      const item: unknown = value[element];
      const text = omitted(item) ? 'null' : indented(JSON.stringify(item, null, 2), '    ');
      yield `    ${text}${element + 1 < value.length ? ',\n' : '\n'}`;
    }
    yield `  ]${end}`;
  }
  yield '}\n';
}
