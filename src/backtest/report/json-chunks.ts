// A JSON document in pieces: the text JSON.stringify(value, null, 2) gives, without ever holding it whole.
// A long run's result lists hundreds of thousands of fills and trades; writing them a piece at a time keeps
// the peak memory of a run at its result, not its result plus its text twice over (the string, the bytes).

/**
 * A long list whose elements are made as they are written, a piece at a time: the rows of a run's fills and
 * trades need not all live at once (bench/README.md: what that saves).
 */
export class MadeList<Element> {
  constructor(
    readonly length: number,
    private readonly make: (index: number) => Element,
  ) {}

  slice(from: number, to: number): Element[] {
    const elements: Element[] = [];
    for (let index = from; index < Math.min(to, this.length); index += 1) elements.push(this.make(index));
    return elements;
  }

  toArray(): Element[] {
    return this.slice(0, this.length);
  }

  /** As JSON.stringify writes it: the list of its elements. */
  toJSON(): Element[] {
    return this.toArray();
  }
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function indented(text: string, pad: string): string {
  return text.includes('\n') ? text.replaceAll('\n', `\n${pad}`) : text;
}

/** What JSON.stringify({ a: [...] }, null, 2) writes around the elements. */
const SLICE_HEAD = '{\n  "a": [\n';
const SLICE_TAIL = '\n  ]\n}';

/** Elements of a top-level array written per piece: few enough to bound a piece, many enough to be quick. */
const ELEMENTS_PER_PIECE = 512;

/**
 * The pieces of JSON.stringify(document, null, 2) + "\n", for a plain object whose arrays may be long: a
 * top-level array (or MadeList) comes in pieces of up to ELEMENTS_PER_PIECE elements.
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
    const list = value instanceof MadeList ? value : Array.isArray(value) ? value : undefined;
    if (list === undefined || list.length === 0) {
      yield `${name}${indented(JSON.stringify(value, null, 2), '  ')}${end}`;
      continue;
    }
    yield `${name}[\n`;
    for (let from = 0; from < list.length; from += ELEMENTS_PER_PIECE) {
      const to = Math.min(list.length, from + ELEMENTS_PER_PIECE);
      // The slice as the value of a key of an object is indented as this document's arrays are: cut out the
      // elements, no re-indenting (quicker than indenting JSON.stringify(slice) by two more spaces).
      const text = JSON.stringify({ a: list.slice(from, to) }, null, 2);
      yield `${text.slice(SLICE_HEAD.length, text.length - SLICE_TAIL.length)}${to < list.length ? ',\n' : '\n'}`;
    }
    yield `  ]${end}`;
  }
  yield '}\n';
}
