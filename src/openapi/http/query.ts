// Query strings as the official SDK writes them (serde_urlencoded): parameters in the given order, arrays as
// repeated keys, bytes other than A-Za-z0-9*-._ percent-encoded, space as '+'. The result is also what is signed.

export type QueryValue = string | number | boolean | readonly string[] | undefined;
/** Parameters in wire order (object insertion order); undefined values and empty arrays are left out. */
export type QueryParams = Readonly<Record<string, QueryValue>>;

const UNRESERVED = /[A-Za-z0-9*\-._]/;

export function encodeQueryComponent(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (byte < 0x80 && UNRESERVED.test(char)) out += char;
    else if (byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function encodeQuery(params: QueryParams = {}): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const values = typeof value === 'object' ? value : [String(value)];
    for (const item of values) pairs.push(`${encodeQueryComponent(key)}=${encodeQueryComponent(item)}`);
  }
  return pairs.join('&');
}
